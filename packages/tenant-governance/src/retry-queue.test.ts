import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFixture } from '@corekit/testing/child-process';
import { deliveryEventIds } from './delivery-event-ids';
import { scriptedSender, startDelivery } from './delivery-test-support';
import { LocalFileStore } from './local-file-store';
import type { RetryQueueEntry } from './retry-queue';

const ok = { outcome: 'dispatched' as const, providerMessageId: 'pm-ok' };
const fail = { outcome: 'sender-failed' as const, reason: 'http-status-503' };
const queueOn = { EnableInvitationDeliveryRetryQueue: true, InvitationDeliveryRetryDelaySeconds: 30 };

it('a sender failing twice then succeeding is delivered by the retry runner, after the delay', async () => {
  const flaky = scriptedSender('flaky', [fail, fail, ok]);
  const run = await startDelivery(
    { ...queueOn, InvitationDeliveryRetryMaxAttempts: 3 },
    { senders: [flaky.sender] },
  );
  try {
    const invitation = await run.invite();
    const first = await run.dispatcher.dispatch({ tenantId: 'acme', invitationId: invitation.invitationId });
    expect(first.outcomes[0]).toMatchObject({ outcome: 'sender-failed', attempt: 1, retryQueued: true });
    expect(first.invitationStatus).toBe('pending');
    // Not due before the delay.
    expect(await run.retryRunner.retryPending()).toMatchObject({
      status: 'completed',
      attempted: 0,
      remaining: 1,
    });
    run.advance(30);
    expect(await run.retryRunner.retryPending()).toMatchObject({
      attempted: 1,
      rescheduled: 1,
      remaining: 1,
    });
    run.advance(30);
    expect(await run.retryRunner.retryPending({ source: 'operator' })).toMatchObject({
      status: 'completed',
      source: 'operator',
      attempted: 1,
      succeeded: 1,
      remaining: 0,
    });
    expect(flaky.calls.map((call) => call.attempt)).toEqual([1, 2, 3]);
    expect((await run.governance.getInvitation('acme', invitation.invitationId))?.status).toBe('sent');
    expect(run.logger.withEventId(deliveryEventIds.retrySucceeded)).toHaveLength(1);
    expect(run.logger.withEventId(deliveryEventIds.retryPassCompleted)).toHaveLength(3);
    const surface = run.engine.technologySurfaces().find((s) => s.id === 'tenant-invitations')!.metadata;
    expect(surface).toMatchObject({
      retryQueueCount: 0,
      retryQueuedTotal: 1,
      retryCompletedTotal: 1,
      latestRetryOutcome: 'completed',
      retryExecutionRunCount: 3,
      latestRetryExecutionOutcome: 'completed',
    });
  } finally {
    await run.engine.stop();
  }
});

it('spends the attempt budget, then drops the item as exhausted; MaxItems bounds the queue', async () => {
  const down = scriptedSender('down', [fail]);
  const run = await startDelivery(
    {
      ...queueOn,
      InvitationDeliveryRetryDelaySeconds: 0,
      InvitationDeliveryRetryMaxAttempts: 2,
      InvitationDeliveryRetryMaxItems: 1,
    },
    { senders: [down.sender] },
  );
  try {
    const a = await run.invite('a@example.test');
    const b = await run.invite('b@example.test');
    expect(
      (await run.dispatcher.dispatch({ tenantId: 'acme', invitationId: a.invitationId })).outcomes[0]
        .retryQueued,
    ).toBe(true);
    // The queue holds one item: the second failure is not queued.
    expect(
      (await run.dispatcher.dispatch({ tenantId: 'acme', invitationId: b.invitationId })).outcomes[0]
        .retryQueued,
    ).toBe(false);
    expect(run.logger.withEventId(deliveryEventIds.retryQueueFull)).toHaveLength(1);
    expect(await run.retryRunner.retryPending()).toMatchObject({ attempted: 1, exhausted: 1, remaining: 0 });
    expect(run.logger.withEventId(deliveryEventIds.retryExhausted)).toHaveLength(1);
    // A spent failure is a dispatch-failed attention item.
    expect(await run.status.attention({ category: 'dispatch-failed' })).toHaveLength(2);
    // A non-retryable failure is never queued.
    const hard = scriptedSender('hard', [{ ...fail, retryable: false }]);
    run.senders.add(hard.sender);
    const c = await run.invite('c@example.test');
    const result = await run.dispatcher.dispatch({
      tenantId: 'acme',
      invitationId: c.invitationId,
      senderIds: ['hard'],
    });
    expect(result.outcomes[0]).toMatchObject({ outcome: 'sender-failed', retryQueued: false });
    expect(run.queueCount()).toBe(0);
  } finally {
    await run.engine.stop();
  }
});

it('an overlapping manual pass answers already-running and leaves the queue untouched', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const sender = scriptedSender('gated', [
    fail,
    fail,
    async () => {
      calls++;
      await gate;
      return ok;
    },
  ]);
  const run = await startDelivery(
    { ...queueOn, InvitationDeliveryRetryDelaySeconds: 0 },
    { senders: [sender.sender] },
  );
  try {
    const a = await run.invite('a@example.test');
    const b = await run.invite('b@example.test');
    await run.dispatcher.dispatch({ tenantId: 'acme', invitationId: a.invitationId });
    await run.dispatcher.dispatch({ tenantId: 'acme', invitationId: b.invitationId });
    const before = await run.queueSnapshot();
    const first = run.retryRunner.retryPending();
    while (calls === 0) await new Promise((resolve) => setImmediate(resolve));
    const during = await run.queueSnapshot();
    expect(await run.retryRunner.retryPending({ source: 'second' })).toEqual({
      status: 'already-running',
      source: 'second',
    });
    expect(await run.queueSnapshot()).toEqual(during);
    expect(during).toEqual(before);
    release();
    expect(await first).toMatchObject({ status: 'completed', succeeded: 2, remaining: 0 });
    expect(run.logger.withEventId(deliveryEventIds.retryPassAlreadyRunning)).toHaveLength(1);
    expect(
      run.engine.technologySurfaces().find((s) => s.id === 'tenant-invitations')!.metadata,
    ).toMatchObject({
      retryExecutionAlreadyRunningCount: 1,
      retryExecutionCoordinationMode: 'skip-overlapping-pass',
    });
  } finally {
    await run.engine.stop();
  }
});

it('the queue file survives a restart, and background scheduling replays it at startup under its source label', async () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'retry-queue-'));
  const file = path.join(directory, 'queue.json');
  const fileQueue = {
    ...queueOn,
    InvitationDeliveryRetryDelaySeconds: 0,
    InvitationDeliveryRetryQueueFilePath: file,
  };
  const first = await startDelivery(fileQueue, {
    senders: [scriptedSender('mail', [fail]).sender],
    configuration: { Engine: { Stores: { Provider: 'File', Directory: path.join(directory, 'stores') } } },
  });
  const invitation = await first.invite();
  await first.dispatcher.dispatch({ tenantId: 'acme', invitationId: invitation.invitationId });
  await first.engine.stop();
  expect(JSON.parse(readFileSync(file, 'utf8')).records).toHaveLength(1);

  const healed = scriptedSender('mail', [ok]);
  const second = await startDelivery(
    {
      ...fileQueue,
      EnableInvitationDeliveryRetryBackgroundScheduling: true,
      InvitationDeliveryRetryBackgroundRunOnStartup: true,
      InvitationDeliveryRetryBackgroundIntervalSeconds: 3600,
      InvitationDeliveryRetryBackgroundSource: 'nightly-replay',
    },
    {
      senders: [healed.sender],
      configuration: { Engine: { Stores: { Provider: 'File', Directory: path.join(directory, 'stores') } } },
    },
  );
  try {
    while (second.logger.withEventId(deliveryEventIds.retryPassCompleted).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(second.logger.withEventId(deliveryEventIds.retryPassCompleted)[0]).toMatchObject({
      source: 'nightly-replay',
      succeeded: 1,
    });
    expect(healed.calls[0].attempt).toBe(2);
    expect(JSON.parse(readFileSync(file, 'utf8')).records).toHaveLength(0);
    expect(
      second.engine.technologySurfaces().find((s) => s.id === 'tenant-invitations')!.metadata,
    ).toMatchObject({
      retryQueueKind: 'local-file',
      retryQueueDurability: 'durable-local',
      retryBackgroundSource: 'nightly-replay',
    });
  } finally {
    await second.engine.stop();
  }
});

it('a SIGKILL mid-write leaves a queue file that loads with every reported item', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'retry-queue-kill-'));
  const file = path.join(root, 'queue', 'retry-queue.json');
  const fixture = startFixture(path.resolve(__dirname, '..'), 'retry-queue-writer.ts', {
    QUEUE_FILE: file,
    CONTENT_ROOT: root,
  });
  await fixture.waitForLine('queued 40', 60_000);
  fixture.child.kill('SIGKILL');
  await fixture.exited;
  const reported = Number(
    fixture.lines
      .filter((line) => line.startsWith('queued '))
      .pop()!
      .split(' ')[1],
  );
  const store = new LocalFileStore<RetryQueueEntry>('retry-queue', file, 100_000);
  const count = await store.count();
  expect(count).toBeGreaterThanOrEqual(reported);
  expect(count).toBeLessThanOrEqual(reported + 1);
  expect(readdirSync(path.dirname(file)).filter((name) => !name.endsWith('.tmp'))).toEqual([
    'retry-queue.json',
  ]);
});

it('a store I/O failure during a retry keeps the entry (retained), a revoked invitation abandons it', async () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'retry-transient-'));
  const stores = path.join(directory, 'stores');
  const flaky = scriptedSender('flaky', [fail, fail, ok]);
  const run = await startDelivery(
    {
      ...queueOn,
      InvitationDeliveryRetryDelaySeconds: 0,
      InvitationDeliveryRetryMaxAttempts: 5,
      InvitationDeliveryRetryQueueFilePath: path.join(directory, 'queue', 'retry.json'),
    },
    {
      senders: [flaky.sender],
      configuration: { Engine: { Stores: { Provider: 'File', Directory: stores } } },
    },
  );
  try {
    const invitation = await run.invite();
    const revoked = await run.invite('revoked@example.test');
    for (const { invitationId } of [invitation, revoked])
      await run.dispatcher.dispatch({ tenantId: 'acme', invitationId });
    expect(run.queueCount()).toBe(2);
    await run.governance.execute({ command: 'revoke', tenantId: 'acme', invitationId: revoked.invitationId });
    // The engine's store directory becomes unwritable (a file where the directory was): every store write fails.
    rmSync(stores, { recursive: true, force: true });
    writeFileSync(stores, 'not a directory');
    const broken = await run.retryRunner.retryPending();
    expect(broken).toMatchObject({
      status: 'completed',
      attempted: 2,
      abandoned: 1,
      retained: 1,
      remaining: 1,
    });
    expect(run.logger.withEventId(deliveryEventIds.retryAbandoned)).toEqual([
      expect.objectContaining({ code: 'INVITATION_NOT_DELIVERABLE' }),
    ]);
    // The store heals: the kept entry is delivered on the next pass.
    rmSync(stores, { force: true });
    mkdirSync(stores);
    expect(await run.retryRunner.retryPending()).toMatchObject({ succeeded: 1, remaining: 0 });
    // The broken pass could not store the attempt's acceptance-secret hash, so it sent no message at all.
    expect(flaky.calls.map((call) => call.attempt)).toEqual([1, 1, 2]);
  } finally {
    await run.engine.stop();
    rmSync(directory, { recursive: true, force: true });
  }
});
