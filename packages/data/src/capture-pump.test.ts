import type { CdcCaptureDescriptor } from '@corekit/abstractions';
import { cdcPollingProvidersKey, type CdcPollingProvider, type StagedBatch } from './polling-provider';
import { pollUntil } from '@corekit/testing/poll-until';
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

/** An in-memory source of numbered changes and an outbox keyed by (capture, change), like a real provider. */
function memoryProvider() {
  const outbox = new Set<string>();
  const source = { changes: 0 };
  const provider: CdcPollingProvider = {
    provider: 'memory',
    acknowledgerServiceType: 'memory-acknowledgement',
    async stageBatch({
      capture: item,
      checkpoint,
      batchSize,
    }: {
      capture: CdcCaptureDescriptor;
      checkpoint: string | null;
      batchSize: number;
    }): Promise<StagedBatch> {
      const from = checkpoint === null ? 0 : Number(checkpoint);
      const to = Math.min(source.changes, from + batchSize);
      let produced = 0;
      for (let change = from + 1; change <= to; change++) {
        const key = `${item.id}:${change}`;
        if (!outbox.has(key)) produced++;
        outbox.add(key);
      }
      return {
        capturedChangeCount: to - from,
        producedMessageCount: produced,
        lastChangeId: to > from ? String(to) : null,
        nextCheckpoint: to > from ? String(to) : null,
        lagSeconds: null,
      };
    },
    async acknowledge() {},
  };
  return { provider, outbox, source };
}

const pass = (served: ServedData) => passNow(served, { retryMs: 10 });

describe('pump coordination through reporter leases', () => {
  it('stays standby while another pump holds the lease, then takes the capture over when that lease expires', async () => {
    const clock = testClock();
    const memory = memoryProvider();
    const served = await serveData(
      {
        CapturePump: { CdcCaptureIds: ['orders'], BatchSize: 5, PollIntervalMilliseconds: 3_600_000 },
        ChangeStreamPump: { Enabled: false },
      },
      (builder) => {
        declareCaptures(builder, [capture('orders', { provider: 'memory' })]);
        builder.provide(cdcPollingProvidersKey, [memory.provider]);
      },
      { now: clock.now, pumpReporterId: 'pump-b' },
    );
    const { runtime } = served.registration;
    await pass(served);
    const pumpRuntime = runtime.runtime('data-cdc-capture-pump')!;
    clock.advanceSeconds(pumpRuntime.reporterLeaseSeconds + 1);
    const other = {
      cdcCaptureId: 'orders',
      reporterId: 'pump-a',
      outcome: 'idle' as const,
      capturedChangeCount: 0,
      producedMessageCount: 0,
    };
    expect(await runtime.book.observe(other, pumpRuntime)).toBe(true);
    memory.source.changes = 7;

    const standby = await pass(served);
    expect(standby.captures[0]).toMatchObject({ outcome: 'standby', capturedChangeCount: 0 });

    clock.advanceSeconds(pumpRuntime.reporterLeaseSeconds + 1);
    const taken = await pass(served);
    expect(taken.captures[0]).toMatchObject({ outcome: 'captured' });
    const state = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(state).toMatchObject({
      reporterId: 'pump-b',
      checkpoint: '7',
      reporterCoordination: { hasCompletedTakeover: true, previousReporterId: 'pump-a' },
    });
    expect(memory.outbox.size).toBe(7);
  });

  /** The memory provider with a batch that waits for the test (a slow source), recording its signal and acks. */
  function slowProvider() {
    const memory = memoryProvider();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const seen: { signal: AbortSignal | null; acknowledged: number } = { signal: null, acknowledged: 0 };
    const stageBatch = memory.provider.stageBatch.bind(memory.provider);
    const provider: CdcPollingProvider = {
      ...memory.provider,
      async stageBatch(request) {
        seen.signal = request.signal ?? null;
        await gate;
        return stageBatch(request);
      },
      async acknowledge() {
        seen.acknowledged += 1;
      },
    };
    memory.source.changes = 3;
    return { provider, open, seen, outbox: memory.outbox };
  }

  async function servedWith(
    provider: CdcPollingProvider,
    clock: ReturnType<typeof testClock>,
    renewMs: number,
  ) {
    return serveData(
      {
        CapturePump: { CdcCaptureIds: ['orders'], BatchSize: 5, PollIntervalMilliseconds: 3_600_000 },
        ChangeStreamPump: { Enabled: false },
      },
      (builder) => {
        declareCaptures(builder, [capture('orders', { provider: 'memory' })]);
        builder.provide(cdcPollingProvidersKey, [provider]);
      },
      { now: clock.now, pumpReporterId: 'pump-b', pumpLeaseRenewMilliseconds: renewMs },
    );
  }

  it('a batch slower than the reporter lease keeps it (renewed): another pump cannot claim the capture meanwhile', async () => {
    const clock = testClock();
    const slow = slowProvider();
    const served = await servedWith(slow.provider, clock, 50);
    const { runtime } = served.registration;
    const pumpRuntime = runtime.runtime('data-cdc-capture-pump')!;
    const running = pass(served);
    await pollUntil(
      async () => slow.seen.signal,
      (signal) => signal !== null,
    );
    const leaseEnd = async () =>
      (await runtime.book.read('orders')).coordination.participants.find(
        (participant) => participant.reporterId === 'pump-b',
      )?.leaseExpiresAtUtc ?? '';
    // Twice most of a lease goes by on the clock while the batch runs; pump-b renews after each step.
    for (let step = 0; step < 2; step++) {
      clock.advanceSeconds(pumpRuntime.reporterLeaseSeconds - 1);
      const expected = new Date(clock.now() + pumpRuntime.reporterLeaseSeconds * 1000).toISOString();
      expect(await pollUntil(leaseEnd, (end) => end >= expected)).toBe(expected);
      expect(await runtime.book.claim('orders', 'pump-a', pumpRuntime, clock.now())).toBe(false);
    }
    slow.open();
    expect((await running).captures[0]).toMatchObject({ outcome: 'captured', capturedChangeCount: 3 });
    expect(slow.seen.signal!.aborted).toBe(false);
    expect((await served.request('/engine/cdc-captures/runtime/orders')).body).toMatchObject({
      reporterId: 'pump-b',
      checkpoint: '3',
    });
  });

  it('a batch whose lease is taken over meanwhile is aborted: nothing acknowledged or reported, the holder keeps the capture', async () => {
    const clock = testClock();
    const slow = slowProvider();
    // The first renewal comes 300 ms after the batch starts: the takeover below happens before it.
    const served = await servedWith(slow.provider, clock, 300);
    const { runtime } = served.registration;
    const pumpRuntime = runtime.runtime('data-cdc-capture-pump')!;
    const running = pass(served);
    await pollUntil(
      async () => slow.seen.signal,
      (signal) => signal !== null,
    );
    clock.advanceSeconds(pumpRuntime.reporterLeaseSeconds + 1);
    expect(await runtime.book.claim('orders', 'pump-a', pumpRuntime, clock.now())).toBe(true);
    await pollUntil(async () => slow.seen.signal!.aborted, Boolean);
    expect(slow.seen.signal!.reason).toMatchObject({ code: 'LEASE_LOST', reason: 'taken-over' });
    slow.open();
    expect((await running).captures[0]).toMatchObject({ outcome: 'standby' });
    expect(slow.seen.acknowledged).toBe(0);
    const state = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(state).toMatchObject({ checkpoint: null, reporterCoordination: { activeReporterCount: 1 } });
    expect(state.reporterCoordination.reporterParticipants).toContainEqual(
      expect.objectContaining({ reporterId: 'pump-a', state: 'active' }),
    );
  });
});
