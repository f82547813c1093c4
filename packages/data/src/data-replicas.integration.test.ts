import * as storePostgres from '@corekit/store-postgres';
import * as storeRedis from '@corekit/store-redis';
import { pollUntil } from '@corekit/testing/poll-until';
import { sharedReplicaTargets, type ReplicaStores } from '@corekit/testing/replica-stores';
import type { PumpPassResult } from './capture-pump';
import {
  capture,
  closeHosts,
  declareCaptures,
  serveData,
  testClock,
  type ServedData,
} from './test-support/data-fixture';
import { postgresSources } from './test-support/postgres-source';

// Two or three data engines (replicas) in this process, each behind its own web host, on one shared store:
// one PostgreSQL table or one Redis key prefix per test. They share one manual clock, so leases move on it.
const { postgresUrl, targets } = sharedReplicaTargets({ postgres: storePostgres, redis: storeRedis }, 'data');

afterEach(closeHosts);

const newSource = postgresSources();

const within = { timeoutMs: 10_000 };
const route = '/engine/cdc-capture-runtimes/debezium/reports';

function replica(stores: ReplicaStores, clock: ReturnType<typeof testClock>) {
  return serveData(
    {
      EnableExternalCdcRuntimeReporting: true,
      SharedStateRefreshMilliseconds: 50,
      CdcExecutionRuntimes: [
        { Id: 'debezium', Kind: 'external-managed', CdcCaptureIds: ['orders'], ReporterLeaseSeconds: 30 },
      ],
    },
    (builder) => {
      stores.install(builder);
      declareCaptures(builder, [capture('orders')]);
    },
    { now: clock.now },
  );
}

type Replica = Awaited<ReturnType<typeof replica>>;
const stateOf = async (served: Replica) =>
  (await served.request('/engine/cdc-captures/runtime/orders')).body as Record<string, any> | undefined;
const report = (served: Replica, reporterId: string, checkpoint: string) =>
  served.request(route, {
    token: 'ok',
    body: [
      {
        cdcCaptureId: 'orders',
        reporterId,
        outcome: 'captured',
        checkpoint,
        capturedChangeCount: 2,
        producedMessageCount: 2,
        acknowledgement: { state: 'acknowledged', acknowledgerServiceType: 'kafka-connect-offsets' },
      },
    ],
  });

describe.each(targets)('data replicas on the $name store provider', (target) => {
  it('a report on A is read on B: capture state, checkpoint and reporter coordination', async () => {
    const stores = target.isolate();
    const clock = testClock();
    const a = await replica(stores, clock);
    const b = await replica(stores, clock);

    expect((await report(a, 'dbz-1', 'lsn:1')).status).toBe(200);
    const onB = await pollUntil(
      () => stateOf(b),
      (state) => state?.checkpoint === 'lsn:1',
      within,
    );
    expect(onB).toMatchObject({
      lastOutcome: 'captured',
      reporterId: 'dbz-1',
      totalCapturedChangeCount: 2,
      acknowledgement: { state: 'acknowledged', durableCheckpoint: 'lsn:1' },
      reporterCoordination: { activeReporterCount: 1 },
      scope: 'shared',
    });
    const runtimeOnB = (await b.request('/engine/cdc-capture-runtimes/debezium')).body;
    expect(runtimeOnB.summary).toMatchObject({ activeReporterId: 'dbz-1', latestCheckpoint: 'lsn:1' });
  });

  it("another reporter is refused while A's lease is live; once it lapsed one replica takes over, once", async () => {
    const stores = target.isolate();
    const clock = testClock();
    const a = await replica(stores, clock);
    const b = await replica(stores, clock);
    const c = await replica(stores, clock);
    expect((await report(a, 'dbz-1', 'lsn:1')).status).toBe(200);

    // A replica starting and reporting for another reporter never displaces the live one.
    const refused = await report(b, 'dbz-2', 'lsn:2');
    expect(refused.status).toBe(409);
    const rejectedOnA = await pollUntil(
      () => stateOf(a),
      (state) => state?.reporterCoordination.rejectedReporterCount === 1,
      within,
    );
    expect(rejectedOnA).toMatchObject({ checkpoint: 'lsn:1', reporterId: 'dbz-1' });

    // dbz-1 stops reporting; past its lease, dbz-2 (on B) and dbz-3 (on C) race: one takes over.
    clock.advanceSeconds(31);
    const [fromB, fromC] = await Promise.all([report(b, 'dbz-2', 'lsn:2'), report(c, 'dbz-3', 'lsn:3')]);
    expect([fromB.status, fromC.status].sort()).toEqual([200, 409]);
    const winner = fromB.status === 200 ? 'dbz-2' : 'dbz-3';
    const onA = await pollUntil(
      () => stateOf(a),
      (state) => state?.reporterId === winner,
      within,
    );
    expect(onA).toMatchObject({
      reporterCoordination: {
        hasCompletedTakeover: true,
        previousReporterId: 'dbz-1',
        activeReporterCount: 1,
      },
    });
    // The old owner coming back is refused: the work was taken over once.
    expect((await report(a, 'dbz-1', 'lsn:9')).status).toBe(409);
  });
});

/** A replica whose shared polling pump reads `table` (PostgreSQL) and stages into `outbox`, as `pumpReporterId`. */
function pumpReplica(
  stores: ReplicaStores,
  clock: ReturnType<typeof testClock>,
  source: { source: string; outbox: string },
  pumpReporterId: string,
) {
  return serveData(
    {
      SharedStateRefreshMilliseconds: 50,
      CapturePump: {
        PostgreSqlConnectionString: postgresUrl,
        PostgreSqlOutboxTable: source.outbox,
        BatchSize: 10,
        PollIntervalMilliseconds: 3_600_000,
      },
    },
    (builder) => {
      stores.install(builder);
      declareCaptures(builder, [
        capture('orders', {
          provider: 'postgresql',
          sourceId: 'test-db',
          metadata: { sourceTable: source.source, changeColumn: 'change_id' },
        }),
      ]);
    },
    { now: clock.now, pumpReporterId },
  );
}

/** One pump pass now (after the startup pass, which runs on its own). */
async function pumpPass(served: ServedData): Promise<PumpPassResult['captures'][number]> {
  const result = await pollUntil(
    () => served.registration.pumpJob!.trigger(),
    (outcome) => outcome.status !== 'already-running',
    within,
  );
  if (result.status !== 'completed') throw new Error(`pump pass ${result.status}`);
  return result.result.captures[0]!;
}

describe.each(targets)('capture pumps of several replicas on the $name store provider', (target) => {
  it('one pump works while its lease lives; stopped, one other pump takes over once from the checkpoint', async () => {
    const stores = target.isolate();
    const clock = testClock();
    const source = await newSource('cdcrep');
    await source.insert(12);
    const a = await pumpReplica(stores, clock, source, 'pump-a');
    expect(await pumpPass(a)).toMatchObject({ outcome: expect.stringMatching(/captured|idle/) });
    expect(await source.outboxRows('orders')).toEqual({ total: 12, distinct: 12, maxChange: 12 });

    // Replicas starting while A's pump holds the lease stay standby and stage nothing.
    const b = await pumpReplica(stores, clock, source, 'pump-b');
    const c = await pumpReplica(stores, clock, source, 'pump-c');
    await source.insert(5);
    expect(await pumpPass(b)).toMatchObject({ outcome: 'standby' });
    expect(await pumpPass(c)).toMatchObject({ outcome: 'standby' });
    expect(await source.outboxRows('orders')).toEqual({ total: 12, distinct: 12, maxChange: 12 });
    const onB = await pollUntil(
      async () => (await b.request('/engine/cdc-captures/runtime/orders')).body,
      (state) => state?.reporterId === 'pump-a',
      within,
    );
    expect(onB).toMatchObject({ totalCapturedChangeCount: 12, scope: 'shared' });

    // A stops; past its lease B and C race: one claims the capture and stages the rest, once.
    await a.host.close();
    // The shipped pump's lease: the larger of 30 s and three poll intervals (here 3 × 1 h).
    clock.advanceSeconds(3 * 3600 + 1);
    const [fromB, fromC] = await Promise.all([pumpPass(b), pumpPass(c)]);
    expect([fromB.outcome, fromC.outcome].filter((outcome) => outcome === 'standby')).toHaveLength(1);
    expect(await source.outboxRows('orders')).toEqual({ total: 17, distinct: 17, maxChange: 17 });
    const winner = fromB.outcome === 'standby' ? 'pump-c' : 'pump-b';
    const onBoth = await pollUntil(
      async () => (await (winner === 'pump-b' ? c : b).request('/engine/cdc-captures/runtime/orders')).body,
      (state) => state?.reporterId === winner,
      within,
    );
    expect(onBoth).toMatchObject({
      totalCapturedChangeCount: 17,
      reporterCoordination: { hasCompletedTakeover: true, previousReporterId: 'pump-a' },
    });
    expect(onBoth.acknowledgement.durableCheckpoint).toMatch(/:17$/);
  });
});

describe('without a shared store provider', () => {
  it('capture states say they are process-local', async () => {
    const served = await replica(
      { install: () => undefined, openProvider: () => undefined as never, environment: {} },
      testClock(),
    );
    await report(served, 'dbz-1', 'lsn:1');
    expect(await stateOf(served)).toMatchObject({ checkpoint: 'lsn:1', scope: 'process-local' });
  });
});
