import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureTelemetry } from '@corekit/testing';
import {
  CdcProviderError,
  cdcPollingProvidersKey,
  type CaptureRestart,
  type CdcPollingProvider,
  type StagedBatch,
} from './polling-provider';
import {
  capture,
  closeHosts,
  declareCaptures,
  passNow,
  serveData,
  testClock,
  type ServedData,
} from './test-support/data-fixture';

afterEach(closeHosts);
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * A source of numbered changes whose position can be lost (like a dropped replication slot): while `lost`,
 * resuming from a checkpoint throws a gap; a restart starts over at the source's current end.
 */
function losableProvider() {
  const source = {
    changes: 0,
    lost: false,
    calls: 0,
    restarts: [] as CaptureRestart[],
    failWith: null as Error | null,
  };
  const provider: CdcPollingProvider = {
    provider: 'memory',
    acknowledgerServiceType: 'memory-acknowledgement',
    restarts: ['accept-gap', 're-snapshot'],
    async stageBatch(request): Promise<StagedBatch> {
      source.calls++;
      if (source.failWith) throw source.failWith;
      if (request.restart) {
        source.restarts.push(request.restart);
        source.lost = false;
        return empty(String(source.changes));
      }
      if (source.lost && request.checkpoint !== null) {
        throw new CdcProviderError('gap', 'CDC_GAP_TEST_POSITION_LOST', 'the test source lost the position');
      }
      const from = request.checkpoint === null ? 0 : Number(request.checkpoint);
      const to = Math.min(source.changes, from + request.batchSize);
      if (to === from) return empty(null);
      return {
        capturedChangeCount: to - from,
        producedMessageCount: to - from,
        lastChangeId: String(to),
        nextCheckpoint: String(to),
        lagSeconds: null,
        completeness: { state: 'guaranteed', reason: null },
      };
    },
    async acknowledge() {},
  };
  return { provider, source };
}

function empty(nextCheckpoint: string | null): StagedBatch {
  return {
    capturedChangeCount: 0,
    producedMessageCount: 0,
    lastChangeId: null,
    nextCheckpoint,
    lagSeconds: null,
    completeness: { state: 'guaranteed', reason: null },
  };
}

const pass = (served: ServedData) => passNow(served, { retryMs: 10 });

async function serve(
  memory: CdcPollingProvider,
  clock = testClock(),
  configuration?: Record<string, unknown>,
) {
  return serveData(
    {
      CapturePump: { CdcCaptureIds: ['orders'], BatchSize: 5, PollIntervalMilliseconds: 3_600_000 },
      ChangeStreamPump: { Enabled: false },
    },
    (builder) => {
      declareCaptures(builder, [capture('orders', { provider: 'memory' })]);
      builder.provide(cdcPollingProvidersKey, [memory]);
    },
    { now: clock.now, pumpReporterId: 'pump-a' },
    configuration,
  );
}

describe('CDC capture gaps', () => {
  it('a lost position stops the capture as not-guaranteed with its reason until an operator accepts the gap', async () => {
    const memory = losableProvider();
    const served = await serve(memory.provider);
    memory.source.changes = 3;
    await pass(served);
    expect((await served.request('/engine/cdc-captures/runtime/orders')).body.checkpoint).toBe('3');

    memory.source.lost = true;
    memory.source.changes = 8;
    expect((await pass(served)).captures[0]).toMatchObject({ outcome: 'failed', failureKind: 'gap' });
    const state = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(state).toMatchObject({
      lastOutcome: 'failed',
      failureKind: 'gap',
      completeness: {
        state: 'not-guaranteed',
        reason: expect.stringContaining('CDC_GAP_TEST_POSITION_LOST'),
      },
      gap: { reasonCode: 'CDC_GAP_TEST_POSITION_LOST', checkpoint: '3', resolution: null },
      restartRequest: null,
    });
    const view = served.host.engine.operatorViews().find((candidate) => candidate.id === 'cdc-capture-gaps')!;
    expect((await view.rows()).map((row) => (row as { cdcCaptureId: string }).cdcCaptureId)).toEqual([
      'orders',
    ]);

    // Stopped: later passes never call the provider (nothing resumed from "now" on its own), and say so.
    const calls = memory.source.calls;
    for (let index = 0; index < 5; index++) await pass(served);
    expect(memory.source.calls).toBe(calls);
    expect(memory.source.restarts).toEqual([]);

    // The decision is a guarded operation.
    expect(
      (await served.request('/engine/cdc-captures/runtime/orders/gap/accept', { body: {} })).status,
    ).toBe(401);
    const accepted = await served.request('/engine/cdc-captures/runtime/orders/gap/accept', {
      token: 'ok',
      body: { note: 'ticket 42' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.restartRequest).toMatchObject({
      action: 'accept-gap',
      requestedBy: 'authorized',
      note: 'ticket 42',
    });

    await pass(served); // at once: a new request skips the backoff of the failures before it
    expect(memory.source.restarts).toEqual(['accept-gap']);
    const after = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(after).toMatchObject({
      gap: null,
      restartRequest: null,
      checkpoint: '8',
      completeness: { state: 'guaranteed' },
      lastResolvedGap: {
        reasonCode: 'CDC_GAP_TEST_POSITION_LOST',
        resolution: { action: 'accept-gap', requestedBy: 'authorized', completedAtUtc: expect.any(String) },
      },
    });
    expect(await view.rows()).toEqual([]);
  });

  it('an open gap survives a restart of the host (it is stored on the File store), and the new pump stays stopped', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'cdc-gap-'));
    folders.push(directory);
    const configuration = { Engine: { Stores: { Provider: 'File', Directory: directory } } };
    const memory = losableProvider();
    const first = await serve(memory.provider, testClock(), configuration);
    memory.source.changes = 2;
    await pass(first);
    memory.source.lost = true;
    await pass(first);
    await closeHosts();

    const calls = memory.source.calls;
    const second = await serve(memory.provider, testClock(), configuration);
    await pass(second);
    expect(memory.source.calls).toBe(calls);
    expect((await second.request('/engine/cdc-captures/runtime/orders')).body).toMatchObject({
      failureKind: 'gap',
      completeness: { state: 'not-guaranteed' },
      gap: { reasonCode: 'CDC_GAP_TEST_POSITION_LOST', checkpoint: '2' },
    });
  });

  it('accept answers 409 without an open gap; re-snapshot is accepted any time', async () => {
    const memory = losableProvider();
    const served = await serve(memory.provider);
    await pass(served);
    const refused = await served.request('/engine/cdc-captures/runtime/orders/gap/accept', {
      token: 'ok',
      body: {},
    });
    expect(refused).toMatchObject({ status: 409, body: { code: 'CDC_NO_OPEN_GAP' } });
    expect(
      (await served.request('/engine/cdc-captures/runtime/nope/gap/re-snapshot', { token: 'ok', body: {} }))
        .status,
    ).toBe(404);
    const resnapshot = await served.request('/engine/cdc-captures/runtime/orders/gap/re-snapshot', {
      token: 'ok',
      body: {},
    });
    expect(resnapshot.status).toBe(200);
    await pass(served);
    expect(memory.source.restarts).toEqual(['re-snapshot']);
  });

  it('what the source retains is on the state and in the histogram; crossing the bound is a runtime event', async () => {
    const telemetry = captureTelemetry();
    try {
      const memory = losableProvider();
      let retained = 2 * 1024 ** 3;
      const provider: CdcPollingProvider = {
        ...memory.provider,
        stageBatch: async (request) => ({
          ...(await memory.provider.stageBatch(request)),
          retention: { bytes: retained, seconds: 30 },
        }),
      };
      const served = await serve(provider);
      const events: Array<{ name: string; data: Record<string, unknown> }> = [];
      served.host.engine.subscribe((event) => {
        if (event.type === 'pack-event') events.push({ name: event.name, data: { ...event.data } });
      });
      await pass(served);
      await pass(served);
      expect((await served.request('/engine/cdc-captures/runtime/orders')).body.lag).toMatchObject({
        retainedBytes: 2 * 1024 ** 3,
        retainedSeconds: 30,
      });
      retained = 1024;
      await pass(served);
      const crossings = events.filter((event) => event.name === 'data.cdc-capture-retention');
      expect(crossings.map((event) => event.data.aboveBound)).toEqual([true, false]);
      const histogram = await telemetry.instrument('corekit.data.cdc.source_retained_bytes');
      expect(histogram).toMatchObject({ kind: 'histogram', unit: 'By' });
      expect(histogram!.points[0]!.value).toBe(3);
    } finally {
      await telemetry.stop();
    }
  });

  it('repeated failures back off: a failing capture is tried a bounded number of times', async () => {
    const clock = testClock();
    const memory = losableProvider();
    const served = await serve(memory.provider, clock);
    memory.source.failWith = new CdcProviderError('provider', 'DOWN', 'source down');
    for (let index = 0; index < 20; index++) await pass(served);
    // The first failure is retried on the next pass; then the capture waits (the clock does not move).
    expect(memory.source.calls).toBe(2);
    clock.advanceSeconds(1);
    await pass(served);
    expect(memory.source.calls).toBe(3);
    clock.advanceSeconds(1);
    await pass(served);
    expect(memory.source.calls).toBe(3); // now 2 s
    clock.advanceSeconds(1);
    memory.source.failWith = null;
    await pass(served);
    expect(memory.source.calls).toBe(4);
    expect((await served.request('/engine/cdc-captures/runtime/orders')).body.lastOutcome).toBe('idle');
  });

  it('an operator’s new restart request is tried at once, whatever the backoff', async () => {
    const clock = testClock();
    const memory = losableProvider();
    const served = await serve(memory.provider, clock);
    memory.source.failWith = new CdcProviderError('provider', 'DOWN', 'source down');
    for (let index = 0; index < 5; index++) await pass(served);
    expect(memory.source.calls).toBe(2); // backing off now
    memory.source.failWith = null;
    const requested = await served.request('/engine/cdc-captures/runtime/orders/gap/re-snapshot', {
      token: 'ok',
      body: {},
    });
    expect(requested.status).toBe(200);
    await pass(served);
    expect(memory.source.restarts).toEqual(['re-snapshot']);
  });
});
