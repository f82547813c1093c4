import { MemoryStoreProvider } from '@corekit/engine-core';
import type { DependencyHealthEntry } from '@corekit/abstractions';
import { DependencyTransitions, type TransitionRecord } from './dependency-transitions';

const start = Date.parse('2026-11-26T10:00:00Z');

function check(offsetSeconds: number, patch: Partial<DependencyHealthEntry> = {}): DependencyHealthEntry {
  return {
    id: 'orders-db',
    displayName: 'Orders database',
    kind: 'PostgreSql',
    required: true,
    status: 'Healthy',
    description: null,
    error: null,
    data: {},
    checkedAtUtc: new Date(start + offsetSeconds * 1000).toISOString(),
    durationMs: 3,
    timedOut: false,
    stale: false,
    refreshIntervalSeconds: 15,
    timeoutSeconds: 5,
    consecutiveFailures: 0,
    ...patch,
  };
}

describe('dependency transitions on the store contract', () => {
  it('records a transition only when the outcome changes, with its error or reason, and the state since then', async () => {
    const store = new MemoryStoreProvider().open<TransitionRecord>('transitions');
    const transitions = new DependencyTransitions(store, { retentionMs: 10 * 365 * 86_400_000 });
    const failed = { status: 'Unhealthy' as const, error: { code: 'ECONNREFUSED', message: 'refused' } };
    await transitions.record(check(0));
    await transitions.record(check(15));
    await transitions.record(check(30, failed));
    await transitions.record(check(45, failed));
    await transitions.record(check(60, { status: 'Degraded', description: 'replica lag 40 s' }));
    await transitions.record(check(20, failed)); // older than the current state: no change invented

    const list = await transitions.transitions('orders-db', 10);
    expect(list.map((transition) => [transition.from, transition.to])).toEqual([
      ['failed', 'degraded'],
      ['healthy', 'failed'],
      [null, 'healthy'],
    ]);
    expect(list[1]).toMatchObject({ atUtc: check(30).checkedAtUtc, error: failed.error });
    expect(list[0]).toMatchObject({ error: null, description: 'replica lag 40 s' });
    expect(await transitions.currentStates()).toEqual({
      'orders-db': { dependencyId: 'orders-db', outcome: 'degraded', sinceUtc: check(60).checkedAtUtc },
    });
  });

  it('a second process on the same store (a restart on a durable one) records no change for an unchanged state', async () => {
    const provider = new MemoryStoreProvider();
    const retention = { retentionMs: 10 * 365 * 86_400_000 };
    await new DependencyTransitions(provider.open<TransitionRecord>('t'), retention).record(
      check(0, { status: 'Unhealthy', timedOut: true }),
    );
    const restarted = new DependencyTransitions(provider.open<TransitionRecord>('t'), retention);
    await restarted.record(check(15, { status: 'Unhealthy', timedOut: true }));
    expect((await restarted.transitions('orders-db', 10)).map((transition) => transition.to)).toEqual([
      'timed-out',
    ]);
    expect((await restarted.currentStates())['orders-db'].sinceUtc).toBe(check(0).checkedAtUtc);
  });
});
