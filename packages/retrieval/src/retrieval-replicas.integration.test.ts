import { resolveStoreSchema, StoreLeases, versionedStore, type LeaseRecord } from '@corekit/abstractions';
import { manualClock, type ManualClock } from '@corekit/engine-core';
import * as storePostgres from '@corekit/store-postgres';
import * as storeRedis from '@corekit/store-redis';
import { pollUntil } from '@corekit/testing/poll-until';
import { sharedReplicaTargets, type ReplicaStores } from '@corekit/testing/replica-stores';
import { createInProcessIndexProvider } from './in-process-provider';
import type { KnowledgeIndexProvider } from './index-provider';
import { reindexLeaseStoreName } from './reindex-leases';
import { retrievalFixture, testSource } from './test-support/retrieval-fixture';

// Two or three retrieval engines (replicas) in this process on one shared store (one PostgreSQL table or one
// Redis key prefix per test) and one shared index: the in-process index object handed to every replica and
// marked durable, standing in for a PostgreSQL or search-cluster index they would all reach.
const { targets } = sharedReplicaTargets({ postgres: storePostgres, redis: storeRedis }, 'retrieval');

const stoppable: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(stoppable.splice(0).map((item) => item.stop()));
});

const within = { timeoutMs: 10_000 };

function sharedIndex(): KnowledgeIndexProvider {
  const index = createInProcessIndexProvider();
  return { ...index, id: 'shared-index', displayName: 'Shared test index', durable: true, close: undefined };
}

interface ReplicaParts {
  readonly stores: ReplicaStores;
  readonly clock: ManualClock;
  readonly index?: KnowledgeIndexProvider;
}

async function replica({ stores, clock, index }: ReplicaParts) {
  const source = testSource();
  const fixture = retrievalFixture(
    {
      clock,
      SharedStateRefreshMilliseconds: 50,
      ReindexLeaseSeconds: 1,
      ...(index ? { providers: [index], Provider: index.id } : {}),
    },
    {},
    source,
  );
  stores.install(fixture.builder);
  const engine = fixture.builder.build();
  await engine.start();
  stoppable.push(engine);
  const reindex = (query: Record<string, unknown> = {}) =>
    engine.operations.invoke('retrieval.reindex', { params: { collectionId: 'handbook' }, query });
  const ask = (queryText: string) =>
    engine.operations.invoke('retrieval.query', {
      params: { collectionId: 'handbook' },
      body: { queryText },
    });
  const state = () =>
    engine.catalog('knowledge-indexes')!.find('handbook') as Record<string, any> | undefined;
  return { engine, source, reindex, ask, state, logger: fixture.logger };
}

const packSurface = (replica: { engine: { technologySurfaces(): readonly any[] } }) =>
  replica.engine.technologySurfaces().find((surface) => surface.id === 'knowledge-retrieval')?.metadata;

describe.each(targets)('retrieval replicas on the $name store provider', (target) => {
  it('a run on A is read on B (state, freshness, counts); a query on B is counted on A', async () => {
    const parts = { stores: target.isolate(), clock: manualClock(), index: sharedIndex() };
    const a = await replica(parts);
    const b = await replica(parts);

    expect((await a.reindex({ runId: 'run-a' })).body).toMatchObject({ outcome: 'succeeded' });
    const onB = await pollUntil(
      async () => b.state(),
      (state) => state?.latestOutcome === 'succeeded',
      within,
    );
    expect(onB).toMatchObject({
      latestRunId: 'run-a',
      documentCount: 3,
      freshnessState: 'fresh',
      scope: 'shared',
      indexingCounts: { started: 1, succeeded: 1 },
    });
    expect((await b.ask('scheduler')).body).toMatchObject({ matchedCount: 1 });
    const onA = await pollUntil(
      async () => a.state(),
      (state) => state?.queryCount === 1,
      within,
    );
    expect(onA).toMatchObject({ queryCount: 1, latestRunId: 'run-a', scope: 'shared' });
    expect(packSurface(b)).toMatchObject({ indexStateScope: 'shared', reindexLeaseSeconds: 1 });
  });

  it('while A indexes, B answers already-running with A’s run id and reads it indexing', async () => {
    const parts = { stores: target.isolate(), clock: manualClock(), index: sharedIndex() };
    const a = await replica(parts);
    const b = await replica(parts);
    let open!: () => void;
    a.source.gate = new Promise<void>((resolve) => (open = resolve));
    const running = a.reindex({ runId: 'run-a' });
    await pollUntil(
      async () => a.source.reads,
      (reads) => reads === 1,
      within,
    );

    expect((await b.reindex({ runId: 'run-b' })).body).toMatchObject({
      outcome: 'already-running',
      runningRunId: 'run-a',
    });
    expect(b.source.reads).toBe(0);
    const collectionOnB = await pollUntil(
      async () =>
        b.engine.technologySurfaces().find((surface) => surface.id === 'knowledge-collection:handbook')
          ?.metadata as Record<string, unknown> | undefined,
      (metadata) => metadata?.runtimeState === 'indexing',
      within,
    );
    expect(collectionOnB).toMatchObject({ runtimeState: 'indexing', indexStateScope: 'shared' });
    open();
    expect((await running).body).toMatchObject({ outcome: 'succeeded', runId: 'run-a' });
    const onB = await pollUntil(
      async () => b.state(),
      (state) => state?.latestOutcome === 'succeeded',
      within,
    );
    expect(onB).toMatchObject({
      latestRunId: 'run-a',
      indexingCounts: { started: 1, succeeded: 1, alreadyRunning: 1 },
    });
  });

  it('a run whose owner died is taken over by one replica once its lease ran out', async () => {
    const stores = target.isolate();
    const parts = { stores, clock: manualClock(), index: sharedIndex() };
    const b = await replica(parts);
    const c = await replica(parts);
    // A replica that died mid-run: its lease on the collection, never renewed again.
    const provider = stores.openProvider();
    stoppable.push({ stop: () => provider.close() });
    const leaseStore = versionedStore<LeaseRecord>(
      provider.open(reindexLeaseStoreName),
      resolveStoreSchema(reindexLeaseStoreName),
    );
    const dead = new StoreLeases(leaseStore, () => parts.clock.now());
    expect(await dead.acquire('handbook', 'replica-that-died', 'run-dead', 1000)).toMatchObject({
      acquired: true,
    });

    // Live work is left alone: a replica asked to run now answers already-running.
    expect((await b.reindex({ runId: 'run-b' })).body).toMatchObject({
      outcome: 'already-running',
      runningRunId: 'run-dead',
    });

    parts.clock.advance(2000);
    const taken = await pollUntil(
      async () => b.state(),
      (state) => state?.latestTrigger === 'replica-takeover' && state.latestOutcome === 'succeeded',
      within,
    );
    expect(taken).toMatchObject({
      documentCount: 3,
      indexingCounts: { started: 1, succeeded: 1 },
      metadata: { takenOverFromOwner: 'replica-that-died', takenOverRunId: 'run-dead' },
    });
    // Once: one replica read its source, and the lease is gone (nothing is left to take over).
    await pollUntil(
      async () => leaseStore.count(),
      (count) => count === 0,
      within,
    );
    expect(b.source.reads + c.source.reads).toBe(1);
    const onC = await pollUntil(
      async () => c.state(),
      (state) => state?.latestTrigger === 'replica-takeover',
      within,
    );
    expect(onC).toMatchObject({ indexingCounts: { started: 1, succeeded: 1 } });
  });

  it('a run whose lease is lost while it indexes records no result and leaves the new holder its lease', async () => {
    const stores = target.isolate();
    const parts = { stores, clock: manualClock(), index: sharedIndex() };
    const a = await replica(parts);
    let open!: () => void;
    a.source.gate = new Promise<void>((resolve) => (open = resolve));
    const running = a.reindex({ runId: 'run-a' });
    await pollUntil(
      async () => a.source.reads,
      (reads) => reads === 1,
      within,
    );
    // Another owner writes the collection's lease meanwhile (it took the work over while A was cut off).
    const provider = stores.openProvider();
    stoppable.push({ stop: () => provider.close() });
    const leaseStore = versionedStore<LeaseRecord>(
      provider.open(reindexLeaseStoreName),
      resolveStoreSchema(reindexLeaseStoreName),
    );
    const held = (await leaseStore.get('handbook'))!;
    expect(held.value).toMatchObject({ workId: 'run-a' });
    await leaseStore.put('handbook', { ...held.value, owner: 'replica-that-took-over', workId: 'run-x' });
    // A's next renewal (a third of the 1 s lease) is refused: A learns it, its run records nothing.
    const lost = await pollUntil(
      async () => a.logger.records.filter((record) => /was lost to another replica/.test(record.message)),
      (records) => records.length > 0,
      within,
    );
    expect(lost[0]).toMatchObject({ eventId: 3275 });
    open();
    expect((await running).body).toMatchObject({
      outcome: 'failed',
      runId: 'run-a',
      error: { code: 'RETRIEVAL_REINDEX_LEASE_LOST' },
    });
    expect(a.state()).toMatchObject({ indexingCounts: { started: 1, succeeded: 0, failed: 0 } });
    expect((await leaseStore.get('handbook'))?.value).toMatchObject({ owner: 'replica-that-took-over' });
  });

  it("with this process's own index, the states stay in the process and say so", async () => {
    const parts = { stores: target.isolate(), clock: manualClock() };
    const a = await replica(parts);
    const b = await replica(parts);
    await a.reindex({ runId: 'run-a' });
    expect(a.state()).toMatchObject({ latestRunId: 'run-a', scope: 'process-local' });
    expect(b.state()).toBeUndefined();
    expect(packSurface(a)).toMatchObject({ indexStateScope: 'process-local', providerDurable: false });
  });
});
