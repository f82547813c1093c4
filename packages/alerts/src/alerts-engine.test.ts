import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NotifierService } from '@corekit/testing/notifier-service';
import { alertsEngine, notificationsOf, startWebhookReceiver } from './test-support/alerts-fixture';

// The alerts pack on a real engine (memory stores) with a manual clock: dependency checks are run by the test
// (engine.refreshDependencies), the evaluation and delivery jobs are triggered by the test, and notifications go
// to two Standard Webhooks targets on a local receiver that verifies each signature.

let receiver: NotifierService;
let running: ReturnType<typeof alertsEngine> | undefined;
const clock = { now: Date.parse('2026-12-01T10:00:00Z') };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});
afterEach(async () => {
  await running?.engine.stop();
  running = undefined;
  receiver.requests.splice(0);
  receiver.accepted.splice(0);
});

async function start(options: Partial<Parameters<typeof alertsEngine>[0]> = {}) {
  running = alertsEngine({ receiver, clock, ...options });
  await running.start();
  return running;
}

const after = (milliseconds: number) => (clock.now += milliseconds);

it('a single failed check sends nothing: the blip is recorded in the story, not notified', async () => {
  const host = await start();
  host.switches['inventory-api'] = 'Unhealthy';
  await host.check();
  host.switches['inventory-api'] = 'Healthy';
  await host.check();
  after(60_000);
  expect(await host.evaluate()).toBe(0);
  expect(await host.deliver()).toBe(0);
  expect(receiver.requests).toHaveLength(0);
  expect(host.incidents()).toHaveLength(0);
  expect(host.story().map((entry) => entry.transition)).toContain('blip-recorded');
});

it('three failed checks in a row send one notification per notifier naming the check, unhealthy, then one resolved', async () => {
  const host = await start();
  host.switches['inventory-api'] = 'Unhealthy';
  for (let run = 0; run < 3; run++) {
    await host.check();
    await host.evaluate(); // readiness is sampled too: its alert is inhibited by the dependency's
  }
  expect(await host.evaluate()).toBe(0); // inside the group window: nothing yet
  after(31_000);
  expect(await host.evaluate()).toBe(1);
  expect(await host.deliver()).toBe(2);
  const [a, b] = [notificationsOf(receiver, '/a'), notificationsOf(receiver, '/b')];
  expect(a).toHaveLength(1);
  expect(b).toHaveLength(1);
  expect(a[0]).toMatchObject({
    status: 'firing',
    severity: 'unhealthy',
    service: 'orders-service',
    revision: 1,
  });
  expect(a[0].alerts.map((alert) => [alert.alertId, alert.severity])).toEqual([
    ['dependency:inventory-api', 'unhealthy'],
  ]);
  expect(a[0].alerts[0].description).toMatch(
    /inventory-api .* is Unhealthy: GET \/inventory-api\/healthz answered 503/,
  );
  const [incident] = host.incidents();
  expect(incident.alerts.find((alert: { alertId: string }) => alert.alertId === 'readiness')).toMatchObject({
    inhibited: true,
  });
  expect(await host.evaluate()).toBe(0); // nothing new: no second notification
  expect(await host.deliver()).toBe(0);

  host.switches['inventory-api'] = 'Healthy';
  await host.check();
  await host.check();
  for (let run = 0; run < 2; run++) await host.evaluate(); // readiness clears too
  await host.deliver();
  const resolved = notificationsOf(receiver, '/a');
  expect(resolved.map((notification) => [notification.status, notification.revision])).toEqual([
    ['firing', 1],
    ['resolved', 2],
  ]);
  expect(resolved[1].incidentId).toBe(resolved[0].incidentId);
  expect(host.incidents()[0]).toMatchObject({ status: 'resolved', notifiedStatus: 'resolved' });
  expect(host.deliveries().every((entry) => entry.outcome === 'delivered')).toBe(true);
});

it('a degraded dependency is notified as degraded, never merged with unhealthy', async () => {
  const host = await start({ dependencies: { 'pricing-api': 'Healthy' } });
  host.switches['pricing-api'] = 'Degraded';
  for (let run = 0; run < 3; run++) await host.check();
  after(31_000);
  await host.evaluate();
  await host.deliver();
  expect(notificationsOf(receiver, '/a')[0]).toMatchObject({
    severity: 'degraded',
    alerts: [{ severity: 'degraded' }],
  });
});

it('an outage of three dependencies at once is one incident and one notification per notifier', async () => {
  const host = await start({
    dependencies: { 'inventory-api': 'Healthy', 'pricing-api': 'Healthy', 'search-api': 'Healthy' },
  });
  for (const id of Object.keys(host.switches)) host.switches[id] = 'Unhealthy';
  for (let run = 0; run < 3; run++) {
    await host.check();
    after(1_000);
  }
  after(30_000);
  await host.evaluate();
  await host.deliver();
  expect(host.incidents()).toHaveLength(1);
  const notifications = notificationsOf(receiver, '/a');
  expect(notifications).toHaveLength(1);
  expect(notifications[0].alerts.map((alert) => alert.dependencyId).sort()).toEqual([
    'inventory-api',
    'pricing-api',
    'search-api',
  ]);
  expect(notificationsOf(receiver, '/b')).toHaveLength(1);
});

it('a notifier answering 500 twice gets the notification on the third attempt, with backoff in the delivery log', async () => {
  const host = await start();
  host.switches['inventory-api'] = 'Unhealthy';
  for (let run = 0; run < 3; run++) await host.check();
  after(31_000);
  await host.evaluate();
  receiver.failNext(500, 2);
  await host.deliver(); // hook-a and hook-b: both 500 (the two faults)
  let entries = host.deliveries();
  expect(entries.map((entry) => [entry.outcome, entry.attempts, entry.responseCode])).toEqual([
    ['retrying', 1, 500],
    ['retrying', 1, 500],
  ]);
  expect(entries[0].nextAttemptAtUtc).toBe(new Date(clock.now + 10_000).toISOString());
  expect(await host.deliver()).toBe(0); // not due yet
  after(10_000);
  receiver.failNext(500, 2);
  await host.deliver();
  entries = host.deliveries();
  expect(entries.map((entry) => [entry.outcome, entry.attempts])).toEqual([
    ['retrying', 2],
    ['retrying', 2],
  ]);
  expect(entries[0].nextAttemptAtUtc).toBe(new Date(clock.now + 20_000).toISOString()); // doubled
  after(20_000);
  await host.deliver();
  expect(host.deliveries().map((entry) => [entry.outcome, entry.attempts, entry.responseCode])).toEqual([
    ['delivered', 3, 204],
    ['delivered', 3, 204],
  ]);
  expect(receiver.requests).toHaveLength(6);
  expect(notificationsOf(receiver)).toHaveLength(2);
  // Every attempt of one delivery carried the same webhook-id, so a receiver can deduplicate.
  expect(new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
});

it('a silence suppresses the next flip, is audited, and expires on time: the still-firing alert is then notified', async () => {
  const host = await start();
  const created = await host.engine.operations.invoke('alerts.create-silence', {
    body: {
      matchers: { dependencyId: 'inventory-api' },
      endsAtUtc: new Date(clock.now + 10 * 60_000).toISOString(),
      comment: 'inventory maintenance window',
    },
    principal: { subject: 'ops-alice', policy: 'alerts.silence', claims: {} },
  });
  expect(created.status).toBe(201);
  const silence = created.body as { silenceId: string; state: string; createdBy: string };
  expect(silence).toMatchObject({ state: 'active', createdBy: 'ops-alice' });
  host.switches['inventory-api'] = 'Unhealthy';
  for (let run = 0; run < 3; run++) await host.check();
  after(31_000);
  expect(await host.evaluate()).toBe(0);
  await host.deliver();
  expect(receiver.requests).toHaveLength(0);
  expect(host.incidents()[0].alerts[0]).toMatchObject({ silencedBy: silence.silenceId });

  after(10 * 60_000 - 31_001); // one millisecond before the end
  expect(host.engine.catalog('alert-silences')!.find(silence.silenceId)).toMatchObject({ state: 'active' });
  expect(await host.evaluate()).toBe(0);
  after(1);
  expect(host.engine.catalog('alert-silences')!.find(silence.silenceId)).toMatchObject({ state: 'expired' });
  expect(await host.evaluate()).toBe(1);
  await host.deliver();
  expect(notificationsOf(receiver, '/a')).toHaveLength(1);
  expect(host.story().map((entry) => entry.transition)).toContain('silence-created');
});

it('silences need a matcher, a comment and a future end; expiring twice is a conflict; the actor is recorded', async () => {
  const host = await start();
  const invoke = (body: unknown) =>
    host.engine.operations.invoke('alerts.create-silence', { body }).catch((error) => error);
  const end = new Date(clock.now + 60_000).toISOString();
  expect(await invoke({ matchers: {}, endsAtUtc: end, comment: 'x maintenance' })).toMatchObject({
    code: 'OPERATION_INPUT_INVALID',
  });
  expect(await invoke({ matchers: { ruleId: 'readiness' }, endsAtUtc: end })).toMatchObject({
    code: 'OPERATION_INPUT_INVALID',
  });
  expect(
    await invoke({
      matchers: { ruleId: 'readiness' },
      endsAtUtc: new Date(clock.now - 1).toISOString(),
      comment: 'too late',
    }),
  ).toMatchObject({ kind: 'invalid-input', code: 'ALERT_SILENCE_END_NOT_AFTER_START' });
  const created = await host.engine.operations.invoke('alerts.create-silence', {
    body: { matchers: { severity: 'degraded' }, endsAtUtc: end, comment: 'noisy optional deps' },
  });
  const { silenceId } = created.body as { silenceId: string };
  const expire = () =>
    host.engine.operations
      .invoke('alerts.expire-silence', {
        params: { silenceId },
        principal: { subject: 'ops-bob', policy: 'alerts.silence', claims: {} },
      })
      .catch((error) => error);
  expect(await expire()).toMatchObject({ status: 200, body: { state: 'expired', expiredBy: 'ops-bob' } });
  expect(await expire()).toMatchObject({ kind: 'conflict', code: 'ALERT_SILENCE_ALREADY_EXPIRED' });
  expect(host.story().map((entry) => entry.transition)).toEqual(
    expect.arrayContaining(['silence-created', 'silence-expired']),
  );
});

it('flap damping: an alert that keeps firing stays firing until it has been clear for the hold-down', async () => {
  const host = await start({ alerts: { FlapDamping: { MaxFirings: 2, HoldDown: '5m' } } });
  const flip = async (status: 'Unhealthy' | 'Healthy', times: number) => {
    host.switches['inventory-api'] = status;
    for (let run = 0; run < times; run++) await host.check();
  };
  await flip('Unhealthy', 3);
  await flip('Healthy', 2); // resolves (first firing)
  await flip('Unhealthy', 3); // second firing: now flapping
  await flip('Healthy', 2);
  expect(host.incidents().filter((incident) => incident.status === 'firing')).toHaveLength(1);
  after(5 * 60_000);
  await flip('Healthy', 1);
  expect(host.incidents().filter((incident) => incident.status === 'firing')).toHaveLength(0);
});

it('readiness is not alerted on while a failure-policy window holds it (the startup readiness delay)', async () => {
  const host = await start({
    dependencies: { 'pricing-api': 'Healthy' },
    configuration: { Engine: { FailurePolicy: { StartupReadinessDelay: '1h' } } },
  });
  expect(host.engine.status().activeWindow).toBe('StartupReadinessDelay');
  expect(host.engine.readiness().status).not.toBe('Healthy');
  for (let pass = 0; pass < 4; pass++) await host.evaluate();
  after(31_000);
  expect(await host.evaluate()).toBe(0);
  expect(host.incidents()).toHaveLength(0);
});

it("a pack's attention view with rows for two passes fires a degraded attention alert; an ignored view never does", async () => {
  const rows: Array<{ id: string }> = [];
  const view = (id: string) => ({
    id,
    title: `Test captures with a gap (${id})`,
    description: 'rows want an operator',
    listPath: '/engine/test-captures',
    idField: 'id',
    columns: [],
    rows: () => rows,
  });
  const host = await start({
    alerts: { Attention: { Ignore: ['ignored-gaps'] } },
    register: (builder) => builder.addOperatorView(view('test-gaps')).addOperatorView(view('ignored-gaps')),
  });
  await host.evaluate();
  rows.push({ id: 'capture-1' });
  await host.evaluate();
  expect(host.incidents()).toHaveLength(0); // one pass with rows: a blip so far
  await host.evaluate();
  after(31_000);
  expect(await host.evaluate()).toBe(1);
  await host.deliver();
  const [notification] = notificationsOf(receiver, '/a');
  expect(notification.alerts).toEqual([
    expect.objectContaining({
      alertId: 'attention:test-gaps',
      ruleId: 'attention',
      dependencyId: 'test-gaps',
      severity: 'degraded',
      description: expect.stringContaining('1 entry wants an operator'),
    }),
  ]);
});

it('works again after engine.restart(), and its incidents and delivery log survive a new process on the File store', async () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'alerts-file-'));
  try {
    const configuration = { Engine: { Stores: { Provider: 'File', Directory: directory } } };
    const host = await start({ configuration });
    await host.engine.restart();
    host.switches['inventory-api'] = 'Unhealthy';
    for (let run = 0; run < 3; run++) await host.check();
    after(31_000);
    expect(await host.evaluate()).toBe(1);
    await host.deliver();
    expect(notificationsOf(receiver, '/a')).toHaveLength(1);
    await host.engine.stop();

    const next = await start({ configuration }); // a new engine on the same folder: a restarted process
    expect(next.incidents()).toEqual([
      expect.objectContaining({ status: 'firing', revision: 1, notifiedStatus: 'firing' }),
    ]);
    expect(next.deliveries().map((entry) => entry.outcome)).toEqual(['delivered', 'delivered']);
    expect(await next.evaluate()).toBe(0); // nothing new to say: not sent again
  } finally {
    await running?.engine.stop();
    running = undefined;
    rmSync(directory, { recursive: true, force: true });
  }
});

it('refuses a misspelled key under Engine:Alerts when the engine starts, naming the closest key', async () => {
  const host = alertsEngine({
    receiver,
    clock,
    configuration: { Engine: { Alerts: { GroupWindw: '10s' } } },
  });
  await expect(host.engine.start()).rejects.toThrow(/Engine:Alerts:GroupWindw.*GroupWindow/s);
});
