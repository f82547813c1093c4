import type { CdcCaptureDescriptor } from '@corekit/abstractions';
import { cdcPollingProvidersKey, type CdcPollingProvider, type StagedBatch } from './polling-provider';
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
});
