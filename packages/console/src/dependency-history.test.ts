import { manualClock, MemoryStoreProvider } from '@corekit/engine-core';
import type { DependencyHealthEntry } from '@corekit/abstractions';
import { DependencyHistory, summarize, type HistoryBucket } from './dependency-history';

function entry(checkedAtMs: number, patch: Partial<DependencyHealthEntry> = {}): DependencyHealthEntry {
  return {
    id: 'orders-db',
    displayName: 'Orders database',
    kind: 'PostgreSql',
    required: true,
    status: 'Healthy',
    description: null,
    error: null,
    data: {},
    checkedAtUtc: new Date(checkedAtMs).toISOString(),
    durationMs: 12,
    timedOut: false,
    stale: false,
    refreshIntervalSeconds: 15,
    timeoutSeconds: 5,
    consecutiveFailures: 0,
    ...patch,
  };
}

describe('dependency history on the store contract', () => {
  it('keeps failed, timed-out and degraded checks apart and summarizes availability and latency', async () => {
    const clock = manualClock();
    const store = new MemoryStoreProvider({ clock }).open<HistoryBucket>('history');
    const history = new DependencyHistory(store, {
      retentionMs: 60 * 60_000,
      bucketMs: 60_000,
      maxSamplesPerBucket: 100,
      now: () => clock.now(),
    });
    const start = clock.now();
    await history.record(entry(start, { durationMs: 10 }));
    await history.record(entry(start + 15_000, { status: 'Degraded', durationMs: 30 }));
    await history.record(
      entry(start + 30_000, { status: 'Unhealthy', durationMs: 2, error: { code: 'E', message: 'm' } }),
    );
    await history.record(entry(start + 45_000, { status: 'Unhealthy', timedOut: true, durationMs: 5000 }));
    await history.record(entry(start + 45_000, { status: 'Unhealthy', timedOut: true, durationMs: 5000 }));
    clock.advance(60_000);
    const samples = await history.read('orders-db', 60 * 60_000);
    expect(samples.map((sample) => sample.outcome)).toEqual(['healthy', 'degraded', 'failed', 'timed-out']);
    expect(summarize(samples)).toEqual({
      checks: 4,
      available: 2,
      uptimePercent: 50,
      averageDurationMs: 1260.5,
      p95DurationMs: 5000,
      outcomes: { healthy: 1, degraded: 1, failed: 1, 'timed-out': 1 },
    });
  });

  it('drops what is older than the retention (records expire) and reads only the asked window', async () => {
    const clock = manualClock();
    const store = new MemoryStoreProvider({ clock }).open<HistoryBucket>('history');
    const history = new DependencyHistory(store, {
      retentionMs: 10 * 60_000,
      bucketMs: 60_000,
      maxSamplesPerBucket: 100,
      now: () => clock.now(),
    });
    for (let minute = 0; minute < 30; minute += 1) {
      await history.record(entry(clock.now()));
      clock.advance(60_000);
    }
    expect(await store.count()).toBeLessThanOrEqual(11);
    const all = await history.read('orders-db', 24 * 60 * 60_000);
    expect(all.length).toBeLessThanOrEqual(11);
    expect(Date.parse(all[0].checkedAtUtc)).toBeGreaterThanOrEqual(clock.now() - 10 * 60_000 - 60_000);
    expect(await history.read('orders-db', 5 * 60_000)).toHaveLength(5);
  });

  it('stays within the store bound by dropping the oldest bucket when the store is full', async () => {
    const clock = manualClock();
    const store = new MemoryStoreProvider({ clock }).open<HistoryBucket>('history', { maxEntries: 3 });
    const dropped: string[] = [];
    const history = new DependencyHistory(store, {
      retentionMs: 60 * 60_000,
      bucketMs: 60_000,
      maxSamplesPerBucket: 100,
      now: () => clock.now(),
      onBucketDropped: (key) => dropped.push(key),
    });
    const start = clock.now();
    for (let minute = 0; minute < 5; minute += 1) await history.record(entry(start + minute * 60_000));
    expect(await store.count()).toBe(3);
    expect(dropped).toHaveLength(2);
    clock.advance(5 * 60_000);
    const kept = await history.read('orders-db', 60 * 60_000);
    expect(kept.map((sample) => sample.checkedAtUtc)).toEqual(
      [2, 3, 4].map((minute) => new Date(start + minute * 60_000).toISOString()),
    );
  });
});
