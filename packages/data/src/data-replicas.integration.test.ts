import { pollUntil, requireService } from '@corekit/testing';
import { capture, closeHosts, declareCaptures, serveData, testClock } from './test-support/data-fixture';
import { postgresReplicaTarget, redisReplicaTarget, type ReplicaStores } from './test-support/replica-stores';

// Two or three data engines (replicas) in this process, each behind its own web host, on one shared store:
// one PostgreSQL table or one Redis key prefix per test. They share one manual clock, so leases move on it.
const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const targets = [postgresReplicaTarget(postgresUrl), redisReplicaTarget(redisUrl)];

beforeAll(async () => {
  await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
  await requireService('Redis', redisUrl, 'REDIS_URL');
});

afterEach(closeHosts);

afterAll(async () => {
  for (const target of targets) await target.cleanUp();
});

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

describe('without a shared store provider', () => {
  it('capture states say they are process-local', async () => {
    const served = await replica(
      { install: () => undefined, openProvider: () => undefined as never },
      testClock(),
    );
    await report(served, 'dbz-1', 'lsn:1');
    expect(await stateOf(served)).toMatchObject({ checkpoint: 'lsn:1', scope: 'process-local' });
  });
});
