import {
  resolveStoreSchema,
  versionedStore,
  type KeyedStore,
  type StoreProvider,
} from '@corekit/abstractions';
import { MemoryStoreProvider, manualClock, type ManualClock } from '@corekit/engine-core';
import { pollUntil } from '@corekit/testing/poll-until';
import type { StoredRun } from './run-model';
import { runStoreName } from './run-store';
import {
  agentsOn,
  fixtureBuilder,
  registerOrderTools,
  script,
  type Script,
} from './test-support/agents-fixture';

// Several engines in one process on one store provider that claims to be shared: the replica behaviour of the
// pack (refresh of the run catalog, approvals across replicas, leases) without child processes. The replica
// harness of @corekit/testing runs the same checks on PostgreSQL and Redis with real processes
// (examples/web-host/src/replicas.test.ts).

/** One memory provider whose records every engine given it sees, reported shared (as PostgreSQL and Redis are). */
function sharedMemory(): StoreProvider {
  const memory = new MemoryStoreProvider();
  return {
    kind: 'shared-memory-test',
    durable: false,
    shared: true,
    open: (name, options) => memory.open(name, options),
  };
}

const refreshMs = 100;
const leaseMs = 5000;

async function replica(provider: StoreProvider, clock: ManualClock, hold: Script = script()) {
  const fixture = fixtureBuilder({}, clock);
  fixture.builder.useStoreProvider(provider);
  const agents = agentsOn(fixture, {
    SharedStoreRefreshMilliseconds: refreshMs,
    RunLeaseMilliseconds: leaseMs,
    RunLeaseRenewMilliseconds: 1000,
  });
  registerOrderTools(agents, hold);
  const engine = fixture.builder.build();
  await engine.start();
  const run = (toolId: string, body: Record<string, unknown>) =>
    engine.operations.invoke('agents.run-tool', { params: { toolId }, body });
  const find = (runId: string) => engine.catalog('agent-tool-runs')!.find(runId) as any;
  const execution = () =>
    engine.technologySurfaces().find((surface) => surface.id === 'agent-tool-execution')!.metadata as any;
  return { engine, run, find, execution, agents };
}

describe('agents on a shared store, several engines', () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });
  async function replicas(
    count: number,
    provider = sharedMemory(),
    clock = manualClock(),
    holds: Script[] = [],
  ) {
    const started = [];
    for (let index = 0; index < count; index += 1) {
      const one = await replica(provider, clock, holds[index]);
      stops.push(() => one.engine.stop());
      started.push(one);
    }
    return started;
  }

  it('a run created on A reads the same on B within the refresh interval; B reports where it reads from', async () => {
    const [a, b] = await replicas(2);
    const created = (await a.run('lookup-order', { runId: 'r-shared', arguments: '{"orderId":"o-1"}' }))
      .body as any;
    expect(created.outcome).toBe('succeeded');
    const seen = await pollUntil(
      async () => b.find('r-shared'),
      (entry) => entry !== undefined,
      {
        timeoutMs: 20 * refreshMs,
      },
    );
    expect(seen).toEqual(a.find('r-shared'));
    expect(b.execution()).toMatchObject({
      runStateScope: 'shared',
      runCatalogSource: 'shared-store-change-feed',
      runCatalogStalenessBoundMilliseconds: expect.any(Number),
      sharedStatePropagation: 'change-feed',
      sharedStateFeedConnected: true,
      runOwnership: 'replica-lease',
      runLeaseMilliseconds: leaseMs,
    });
    expect(b.execution().replicaId).not.toBe(a.execution().replicaId);
  });

  it('without a change feed the run catalog is reloaded every refresh interval, and says so', async () => {
    const withFeed = sharedMemory();
    const withoutFeed: StoreProvider = {
      ...withFeed,
      open: <T>(name: string, options?: Parameters<StoreProvider['open']>[1]): KeyedStore<T> => {
        const store = withFeed.open<T>(name, options);
        return {
          name,
          get: (key) => store.get(key),
          list: (listOptions) => store.list(listOptions),
          put: (key, value, putOptions) => store.put(key, value, putOptions),
          delete: (key, deleteOptions) => store.delete(key, deleteOptions),
          count: () => store.count(),
        };
      },
    };
    const [a, b] = await replicas(2, withoutFeed);
    await a.run('lookup-order', { runId: 'r-polled', arguments: '{"orderId":"o-1"}' });
    const seen = await pollUntil(
      async () => b.find('r-polled'),
      (entry) => entry !== undefined,
      { timeoutMs: 20 * refreshMs },
    );
    expect(seen).toEqual(a.find('r-polled'));
    expect(b.execution()).toMatchObject({
      runCatalogSource: 'shared-store-refresh',
      runCatalogStalenessBoundMilliseconds: refreshMs,
      sharedStatePropagation: 'interval',
      sharedStateFeedConnected: null,
    });
  });

  it('a run waiting on A is listed by B; approved on B, A shows it approved and succeeded', async () => {
    const [a, b] = await replicas(2);
    const waiting = (
      await a.run('refund-order', {
        runId: 'r-wait',
        arguments: '{"orderId":"o-1","amount":500}',
        actorId: 'agent',
      })
    ).body as any;
    expect(waiting.outcome).toBe('approval-required');
    const listed = await pollUntil(
      async () => b.engine.catalog('agent-tool-runs')!.entries() as any[],
      (entries) => entries.some((entry) => entry.runId === 'r-wait' && entry.requiresApproval),
      { timeoutMs: 20 * refreshMs },
    );
    expect(listed.map((entry) => entry.runId)).toContain('r-wait');
    const decided = await b.engine.operations.invoke('agents.decide-run', {
      params: { runId: 'r-wait' },
      body: { decision: 'approve', actorId: 'approver' },
    });
    expect((decided.body as any).outcome).toBe('succeeded');
    const onA = await pollUntil(
      async () => a.find('r-wait'),
      (entry) => entry?.latestOutcome === 'succeeded',
      {
        timeoutMs: 20 * refreshMs,
      },
    );
    expect(onA).toMatchObject({
      approval: { state: 'approved', decidedBy: 'approver' },
      requiresApproval: false,
    });
  });

  it('a replica that starts while A executes never interrupts the live run; A still owns it', async () => {
    const provider = sharedMemory();
    const clock = manualClock();
    const [a] = await replicas(1, provider, clock, [script('hang')]);
    const caller = new AbortController();
    stops.unshift(async () => caller.abort());
    void a.engine.operations
      .invoke('agents.run-tool', {
        params: { toolId: 'lookup-order' },
        body: { runId: 'r-live', arguments: '{"orderId":"o-1"}' },
        signal: caller.signal,
      })
      .catch(() => undefined);
    await pollUntil(
      async () => a.find('r-live'),
      (entry) => entry?.latestOutcome === 'accepted',
    );
    const [c] = await replicas(1, provider, clock);
    // Two refresh passes of C after it started: its sweep saw the run and left it alone.
    const before = c.execution().runCatalogRefreshedAtUtc;
    const seen = await pollUntil(
      async () => ({ entry: c.find('r-live'), refreshed: c.execution().runCatalogRefreshedAtUtc }),
      (state) => state.entry !== undefined && state.refreshed !== null && state.refreshed !== before,
      { timeoutMs: 20 * refreshMs },
    );
    expect(seen.entry).toMatchObject({ latestOutcome: 'accepted', ownerReplicaId: a.execution().replicaId });
    expect(a.find('r-live')).toMatchObject({ latestOutcome: 'accepted', outcomeCounts: { failed: 0 } });
    expect(c.execution().leaseInterruptedRunCount).toBe(0);
  });

  it('a run whose owner died is reported interrupted once after its lease, by exactly one replica', async () => {
    const provider = sharedMemory();
    const clock = manualClock();
    const survivors = await replicas(3, provider, clock);
    // The dead owner's last write: executing, lease until now + leaseMs, never renewed again.
    const store = versionedStore<StoredRun>(provider.open(runStoreName), resolveStoreSchema(runStoreName));
    const [first] = survivors;
    const waiting = (
      await first.run('refund-order', { runId: 'r-dead', arguments: '{"orderId":"o-1","amount":500}' })
    ).body as any;
    expect(waiting.outcome).toBe('approval-required');
    const record = (await store.get('r-dead'))!;
    await store.put(
      'r-dead',
      {
        ...JSON.parse(JSON.stringify(record.value)),
        phase: 'running',
        latestOutcome: 'accepted',
        ownerReplicaId: 'dead-replica',
        leaseExpiresAtUtc: new Date(clock.now() + leaseMs).toISOString(),
      },
      { expectedVersion: record.version },
    );
    const live = await pollUntil(
      async () => survivors.map((one) => one.find('r-dead')?.ownerReplicaId),
      (owners) => owners.every((owner) => owner === 'dead-replica'),
      { timeoutMs: 20 * refreshMs },
    );
    expect(live).toEqual(['dead-replica', 'dead-replica', 'dead-replica']);
    clock.advance(leaseMs + 1);
    const after = await pollUntil(
      async () => survivors.map((one) => one.find('r-dead')),
      (entries) => entries.every((entry) => entry?.latestOutcome === 'failed'),
      { timeoutMs: 20 * refreshMs },
    );
    for (const entry of after) {
      expect(entry).toMatchObject({
        errorSummary: { code: 'AGENT_TOOL_RUN_INTERRUPTED' },
        outcomeCounts: { failed: 1 },
        ownerReplicaId: null,
      });
    }
    const counts = survivors.map((one) => one.execution().leaseInterruptedRunCount as number);
    expect(counts.reduce((total, count) => total + count, 0)).toBe(1);
  });

  it('an owner whose run was interrupted elsewhere loses its lease: the attempt is aborted, its report refused', async () => {
    const provider = sharedMemory();
    const clock = manualClock();
    const hold = script('hang');
    const [a] = await replicas(1, provider, clock, [hold]);
    const outcome = a.run('lookup-order', { runId: 'r-taken', arguments: '{"orderId":"o-1"}' });
    outcome.catch(() => undefined);
    await pollUntil(
      async () => a.find('r-taken'),
      (entry) => entry?.latestOutcome === 'accepted',
    );
    // Another replica's sweep wrote first (as after a lease that ran out while this owner stalled).
    const store = versionedStore<StoredRun>(provider.open(runStoreName), resolveStoreSchema(runStoreName));
    const record = (await store.get('r-taken'))!;
    await store.put(
      'r-taken',
      { ...JSON.parse(JSON.stringify(record.value)), phase: 'finished', latestOutcome: 'failed' },
      { expectedVersion: record.version },
    );
    await expect(outcome).rejects.toMatchObject({ kind: 'conflict', code: 'AGENT_TOOL_RUN_LEASE_LOST' });
    expect(hold.signals[0].aborted).toBe(true);
  });

  it('on a store that is not shared the catalog is write-through and one process owns every run', async () => {
    const fixture = fixtureBuilder();
    registerOrderTools(agentsOn(fixture), script());
    const engine = fixture.builder.build();
    await engine.start();
    stops.push(() => engine.stop());
    const execution = engine.technologySurfaces().find((surface) => surface.id === 'agent-tool-execution')!
      .metadata as any;
    expect(execution).toMatchObject({
      runStateStoreKind: 'memory',
      runStateScope: 'process-local',
      runCatalogSource: 'store-write-through',
      runCatalogStalenessBoundMilliseconds: 0,
      runCatalogRefreshedAtUtc: null,
      runOwnership: 'single-process',
    });
  });

  it('refuses a lease renewal interval that is not below the lease, naming the key', () => {
    const fixture = fixtureBuilder();
    expect(() => agentsOn(fixture, { RunLeaseMilliseconds: 2000, RunLeaseRenewMilliseconds: 2000 })).toThrow(
      /Engine:Agents:RunLeaseRenewMilliseconds/,
    );
  });
});
