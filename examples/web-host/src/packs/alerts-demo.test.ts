import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { JobHandle } from '@corekit/abstractions';
import { createMemoryLogger } from '@corekit/engine-core';
import { pollUntil } from '@corekit/testing/poll-until';
import { startNotifierService, type NotifierService } from '@corekit/testing/notifier-service';
import type { WebHost } from '@corekit/web-host';
import { createSampleHost } from '../sample-host';
import { testDataDirectory } from '../test-support/test-data-directory';

// The "Done when" on the sample host with its real engine and HTTP: the demo's own signed-webhook receiver
// plus a second Standard Webhooks target (`ops-hook`, a receiver of this test) configured like a user would. The
// alerts clock is manual and the dependency checks and alert jobs run when the test says (no sleeping).

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const token = 'alerts-demo-operator-token';
const dataDirectory = testDataDirectory();
let ops: NotifierService;
let host: WebHost | undefined;
const clock = { now: Date.now() };
let started = 0;

beforeAll(async () => {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  ops = await startNotifierService((request) => {
    const signed = `${String(request.headers['webhook-id'])}.${String(request.headers['webhook-timestamp'])}.${request.body}`;
    const valid =
      request.headers['webhook-signature'] ===
      `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
    return { status: valid ? 204 : 401 };
  });
});
afterAll(() => ops.close());
afterEach(async () => {
  await host?.close();
  host = undefined;
  ops.requests.splice(0);
  ops.accepted.splice(0);
});

async function start() {
  clock.now = Date.parse('2026-12-01T10:00:00Z');
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    dataDirectory: path.join(dataDirectory, String((started += 1))), // the File stores of this test alone
    logger: createMemoryLogger(),
    environment: { SAMPLE_OPERATOR_TOKEN: token },
    alertsNow: () => clock.now,
    configuration: {
      Engine: {
        Observability: { DependencyHealth: { RefreshIntervalSeconds: 3600 } },
        Alerts: {
          EvaluationInterval: '1h',
          Attention: { Enabled: false },
          Delivery: { Interval: '1h', InitialBackoff: '10s' },
          Notifiers: { Webhook: { Targets: [{ Id: 'ops-hook', Url: `${ops.url}/ops`, Secret: secret }] } },
        },
      },
    },
  });
  host = sample.host;
  const { port } = await sample.host.listen();
  const base = `http://127.0.0.1:${port}`;
  const engine = sample.host.engine as unknown as { refreshDependencies(): Promise<void> };
  const run = async (job: JobHandle<number>) => {
    await pollUntil(
      async () => job.state(),
      (state) => !state.running,
      { timeoutMs: 10_000 },
    );
    const outcome = await job.trigger();
    if (outcome.status !== 'completed') throw new Error(JSON.stringify(outcome));
    return outcome.result;
  };
  return {
    base,
    async flip(upstream: 'inventory' | 'pricing', state: string) {
      expect(
        (await fetch(`${base}/api/demo/upstreams/${upstream}/${state}`, { method: 'POST' })).status,
      ).toBe(200);
    },
    async check(times = 1) {
      for (let run = 0; run < times; run++) {
        await engine.refreshDependencies();
        await sample.alerts.idle();
      }
    },
    evaluate: () => run(sample.alerts.evaluation),
    deliver: () => run(sample.alerts.delivery),
    async received(): Promise<Array<Record<string, any>>> {
      return (
        (await (await fetch(`${base}/api/demo/alert-receiver`)).json()) as {
          received: Array<Record<string, any>>;
        }
      ).received;
    },
    async get(path: string) {
      return (
        await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })
      ).json() as Promise<any>;
    },
  };
}

it('a single failed check sends nothing', async () => {
  const sample = await start();
  await sample.flip('inventory', 'down');
  await sample.check();
  await sample.flip('inventory', 'up');
  await sample.check();
  clock.now += 60_000;
  expect(await sample.evaluate()).toBe(0);
  await sample.deliver();
  expect(await sample.received()).toEqual([]);
  expect(ops.requests).toHaveLength(0);
  const story = await sample.get('/engine/runtime-story');
  expect(story.timeline.map((entry: { transition: string }) => entry.transition)).toContain('blip-recorded');
});

it('three failed checks in a row send exactly one notification per notifier, naming the check, severity unhealthy', async () => {
  const sample = await start();
  await sample.flip('inventory', 'down');
  await sample.check(3);
  clock.now += 10_000; // the group window
  expect(await sample.evaluate()).toBe(1);
  await sample.deliver();
  const received = await sample.received();
  expect(received).toHaveLength(1);
  expect(received[0]).toMatchObject({
    status: 'firing',
    severity: 'unhealthy',
    title: '[FIRING] corekit-sample-host: 1 alert (unhealthy)',
  });
  // One service name on every surface that names the service: the manifest, presence and the incident.
  const [manifest, instances] = [await sample.get('/engine/manifest'), await sample.get('/engine/instances')];
  expect(manifest.service).toMatchObject({ name: 'corekit-sample-host', source: 'Engine:Service' });
  expect(instances.map((instance: { serviceName: string }) => instance.serviceName)).toEqual([
    'corekit-sample-host',
  ]);
  const incidents = await sample.get('/engine/alert-incidents');
  expect(incidents.map((incident: { service: string }) => incident.service)).toEqual(['corekit-sample-host']);
  expect(received[0].alerts).toEqual([
    expect.objectContaining({
      alertId: 'dependency:inventory-api',
      severity: 'unhealthy',
      description: expect.stringContaining('Inventory API'),
    }),
  ]);
  expect(ops.accepted).toHaveLength(1);
  expect(JSON.parse(ops.accepted[0].body)).toMatchObject({
    incidentId: received[0].incidentId,
    status: 'firing',
  });
  expect(await sample.evaluate()).toBe(0);
  await sample.deliver();
  expect(await sample.received()).toHaveLength(1);
  const deliveries = await sample.get('/engine/alert-deliveries');
  expect(
    deliveries
      .map((entry: { notifierId: string; outcome: string }) => [entry.notifierId, entry.outcome])
      .sort(),
  ).toEqual([
    ['ops-hook', 'delivered'],
    ['sample-receiver', 'delivered'],
  ]);
});

it('both dependencies failing at once are one incident: one notification with both, each with its own severity', async () => {
  const sample = await start();
  await sample.flip('inventory', 'down');
  await sample.flip('pricing', 'slow');
  await sample.check(3);
  clock.now += 10_000;
  await sample.evaluate();
  await sample.deliver();
  const received = await sample.received();
  expect(received).toHaveLength(1);
  expect(
    received[0].alerts.map((alert: { alertId: string; severity: string }) => [alert.alertId, alert.severity]),
  ).toEqual([
    ['dependency:inventory-api', 'unhealthy'],
    ['dependency:pricing-api', 'degraded'],
  ]);
  expect(ops.accepted).toHaveLength(1);
  expect(await sample.get('/engine/alert-incidents')).toHaveLength(1);
});

it('a silence created over HTTP suppresses the next flip and expires on time', async () => {
  const sample = await start();
  const created = await fetch(`${sample.base}/engine/alert-silences`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      matchers: { dependencyId: 'inventory-api' },
      endsAtUtc: new Date(clock.now + 15 * 60_000).toISOString(),
      comment: 'inventory database upgrade',
    }),
  });
  expect(created.status).toBe(201);
  const silence = (await created.json()) as { silenceId: string; createdBy: string };
  expect(silence.createdBy).toBe('operator');
  await sample.flip('inventory', 'down');
  await sample.check(3);
  clock.now += 15 * 60_000 - 1;
  expect(await sample.evaluate()).toBe(0);
  await sample.deliver();
  expect(await sample.received()).toEqual([]);
  clock.now += 1;
  expect((await sample.get(`/engine/alert-silences/${silence.silenceId}`)).state).toBe('expired');
  expect(await sample.evaluate()).toBe(1);
  await sample.deliver();
  expect(await sample.received()).toHaveLength(1);
});

it('a notifier answering 500 twice gets the notification on the third attempt', async () => {
  const sample = await start();
  await sample.flip('inventory', 'down');
  await sample.check(3);
  clock.now += 10_000;
  await sample.evaluate();
  ops.failNext(500, 2);
  await sample.deliver();
  clock.now += 10_000;
  await sample.deliver();
  clock.now += 20_000;
  await sample.deliver();
  expect(ops.requests).toHaveLength(3);
  expect(ops.accepted).toHaveLength(1);
  const entry = await sample.get(
    `/engine/alert-deliveries/${JSON.parse(ops.accepted[0].body).notificationId}.ops-hook`,
  );
  expect(entry).toMatchObject({ outcome: 'delivered', attempts: 3, responseCode: 204 });
  expect(await sample.received()).toHaveLength(1); // the demo receiver got it at the first attempt
});
