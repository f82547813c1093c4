import { capture, closeHosts, declareCaptures, serveData, testClock } from './test-support/data-fixture';

afterEach(closeHosts);

const runtimes = {
  EnableExternalCdcRuntimeReporting: true,
  CapturePump: { Enabled: false },
  ChangeStreamPump: { Enabled: false },
  CdcExecutionRuntimes: [
    {
      Id: 'debezium',
      Kind: 'external-managed' as const,
      CdcCaptureIds: ['orders', 'invoices'],
      ReporterLeaseSeconds: 60,
    },
    {
      Id: 'edge-runners',
      Kind: 'edge' as const,
      CdcCaptureIds: ['shipments'],
      EdgeNodeIds: ['edge-a', 'edge-b'],
    },
  ],
};
const declare = (builder: Parameters<typeof declareCaptures>[0]) =>
  declareCaptures(builder, [
    capture('orders'),
    capture('invoices', { provider: 'sqlserver', sourceId: 'billing-db', resourceIds: ['dbo.invoices'] }),
    capture('shipments', { metadata: { edgeNodeId: 'edge-b' } }),
  ]);

describe('CDC routes of 4.3 over HTTP', () => {
  it('projects every declared capture before its first report, with every 2.4 field', async () => {
    const served = await serveData(runtimes, declare);
    const orders = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(orders).toMatchObject({
      cdcCaptureId: 'orders',
      sourceModuleId: 'orders',
      provider: 'external',
      outboxId: 'orders-outbox',
      lastOutcome: null,
      lastObservedAtUtc: null,
      checkpoint: null,
      latestCapturedChangeCount: 0,
      totalProducedMessageCount: 0,
      executionBinding: { effectiveExecutionRuntimeId: 'debezium', selectionReason: 'host-declared-runtime' },
      freshness: { state: 'never-observed' },
      acknowledgement: { state: 'none', durableCheckpoint: null },
      failureKind: null,
      reporterId: null,
      reporterLease: null,
      edgeProvenance: null,
      reporterCoordination: { participantCount: 0, takeoverState: null, degradedReason: null },
    });
    for (const field of [
      'changeId',
      'error',
      'lag',
      'publication',
      'acknowledgerServiceType',
      'outboxDispatchState',
    ])
      expect(orders).toHaveProperty(field);
    expect((await served.request('/engine/cdc-captures/runtime/nope')).status).toBe(404);
    const snapshot = (await served.request('/engine/snapshot')).body;
    expect(snapshot.cdcCaptureStates).toHaveLength(3);
    expect(snapshot.cdcCaptureExecutionRuntimes.map((runtime: { id: string }) => runtime.id)).toEqual([
      'debezium',
      'edge-runners',
    ]);
  });

  it('serves the runtime-state list at /engine/cdc-captures/runtime, not as the capture by-id route', async () => {
    const served = await serveData(runtimes, declare);
    const list = await served.request('/engine/cdc-captures/runtime');
    expect(list.status).toBe(200);
    expect(list.body.map((state: { cdcCaptureId: string }) => state.cdcCaptureId)).toEqual([
      'orders',
      'invoices',
      'shipments',
    ]);
  });

  it('narrows runtime states and captures by every dimension, and lists runtimes by id', async () => {
    const served = await serveData(runtimes, declare);
    const ids = async (path: string) => {
      const answer = await served.request(path);
      expect(answer.status).toBe(200);
      return answer.body.map(
        (entry: { cdcCaptureId?: string; id?: string }) => entry.cdcCaptureId ?? entry.id,
      );
    };
    expect(await ids('/engine/cdc-captures/runtime/modules/orders')).toHaveLength(3);
    expect(await ids('/engine/cdc-captures/runtime/providers/sqlserver')).toEqual(['invoices']);
    expect(await ids('/engine/cdc-captures/runtime/outboxes/orders-outbox')).toHaveLength(3);
    expect(await ids('/engine/cdc-captures/runtime/sources/billing-db')).toEqual(['invoices']);
    expect(await ids('/engine/cdc-captures/runtime/resources/dbo.invoices')).toEqual(['invoices']);
    expect(await ids('/engine/cdc-captures/runtime/execution-runtimes/edge-runners')).toEqual(['shipments']);
    expect(await ids('/engine/cdc-captures/runtime/reporters/r1')).toEqual([]);
    expect(await ids('/engine/cdc-captures/runtime/edge-nodes/edge-b')).toEqual([]);
    expect(await ids('/engine/cdc-captures/runtime/reporter-coordination/active')).toEqual([]);
    expect(await ids('/engine/cdc-captures/runtime/reporter-coordination/issues/awaiting-takeover')).toEqual(
      [],
    );
    expect(await ids('/engine/cdc-captures/execution-runtimes/debezium')).toEqual(['orders', 'invoices']);
    const bound = (await served.request('/engine/cdc-captures/execution-runtimes/debezium')).body[0];
    expect(bound.executionBinding).toMatchObject({ effectiveExecutionRuntimeId: 'debezium' });
    expect((await served.request('/engine/cdc-captures/execution-runtimes/nope')).status).toBe(404);
    expect(await ids('/engine/cdc-captures/providers/sqlserver')).toEqual(['invoices']);
    expect(await ids('/engine/cdc-capture-runtimes')).toEqual(['debezium', 'edge-runners']);
    const edge = await served.request('/engine/cdc-capture-runtimes/edge-runners');
    expect(edge.body).toMatchObject({
      id: 'edge-runners',
      cdcCaptureIds: ['shipments'],
      executionOwnership: 'edge-managed',
      executionTopology: 'edge',
      acknowledgementMode: 'edge-reported',
      hostedExecutionId: null,
      reporterLeaseSeconds: 30,
      rejectConflictingReporterIds: true,
      edgeNodeIds: ['edge-a', 'edge-b'],
      summary: { reportedCdcCaptureIds: [], latestOutcome: null, activeReporterId: null },
    });
    expect((await served.request('/engine/cdc-capture-runtimes/nope')).status).toBe(404);
    expect(await ids('/engine/cdc-capture-runtimes/edge-nodes/edge-a')).toEqual(['edge-runners']);
    expect(await ids('/engine/cdc-capture-runtimes/reporters/r1')).toEqual([]);
    expect(await ids('/engine/cdc-capture-runtimes/reporter-coordination/active')).toEqual([]);
    expect(
      await ids('/engine/cdc-capture-runtimes/reporter-coordination/issues/rejected-reporter-conflict'),
    ).toEqual([]);
  });

  it('accepts a report, answers the refreshed runtime descriptor and refreshes the runtime-state catalog', async () => {
    const clock = testClock();
    const served = await serveData(runtimes, declare, { now: clock.now });
    const report = await served.request('/engine/cdc-capture-runtimes/debezium/reports', {
      token: 'ok',
      body: [
        {
          cdcCaptureId: 'orders',
          reporterId: 'dbz-1',
          outcome: 'captured',
          checkpoint: 'lsn:0/16B3748',
          changeId: 'tx-42',
          capturedChangeCount: 12,
          producedMessageCount: 12,
          lagSeconds: 1.5,
          outboxDispatchState: 'staged',
          acknowledgement: { state: 'acknowledged', acknowledgerServiceType: 'kafka-connect-offsets' },
        },
        { cdcCaptureId: 'invoices', reporterId: 'dbz-1', outcome: 'idle' },
      ],
    });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      id: 'debezium',
      summary: {
        reportedCdcCaptureIds: ['orders', 'invoices'],
        capturedCount: 1,
        idleCount: 1,
        totalCapturedChanges: 12,
        totalProducedMessages: 12,
        lastReporterId: 'dbz-1',
        activeReporterId: 'dbz-1',
        reporterLeaseExpiresAtUtc: '2026-03-01T10:01:00.000Z',
      },
    });
    const state = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(state).toMatchObject({
      lastOutcome: 'captured',
      checkpoint: 'lsn:0/16B3748',
      changeId: 'tx-42',
      latestCapturedChangeCount: 12,
      totalCapturedChangeCount: 12,
      freshness: { state: 'fresh' },
      lag: { lagSeconds: 1.5 },
      publication: { state: 'staged' },
      acknowledgement: { state: 'acknowledged', durableCheckpoint: 'lsn:0/16B3748' },
      acknowledgerServiceType: 'kafka-connect-offsets',
      reporterId: 'dbz-1',
      reporterLease: { reporterId: 'dbz-1', expiresAtUtc: '2026-03-01T10:01:00.000Z', expired: false },
      reporterCoordination: { activeReporterCount: 1, participantCount: 1 },
    });
    expect((await served.request('/engine/cdc-captures/runtime/reporters/dbz-1')).body).toHaveLength(2);
    clock.advanceSeconds(301);
    expect((await served.request('/engine/cdc-captures/runtime/orders')).body.freshness).toEqual({
      state: 'stale',
      ageSeconds: 301,
      staleAfterSeconds: 300,
    });
    expect((await served.request('/engine/cdc-capture-runtimes/reporters/dbz-1')).body).toHaveLength(1);
  });

  it('answers 400 with every issue, 404 for unknown ids, 409 for another runtime’s capture and 401 without credentials', async () => {
    const served = await serveData(runtimes, declare);
    const post = (path: string, body: unknown, token = 'ok') =>
      served.request(path, { body, token, method: 'POST' });
    const route = '/engine/cdc-capture-runtimes/debezium/reports';
    const notArray = await post(route, { cdcCaptureId: 'orders' });
    expect(notArray.status).toBe(400);
    const bad = await post(route, [
      {
        cdcCaptureId: 'orders',
        reporterId: 'r',
        outcome: 'captured',
        capturedChangeCount: -1,
        surprise: true,
      },
      { cdcCaptureId: 'orders', outcome: 'exploded' },
    ]);
    expect(bad.status).toBe(400);
    const issues = JSON.stringify(bad.body);
    for (const expected of ['capturedChangeCount', 'surprise', 'reporterId', 'outcome'])
      expect(issues).toContain(expected);
    expect(
      (
        await post('/engine/cdc-capture-runtimes/nope/reports', [
          { cdcCaptureId: 'orders', reporterId: 'r', outcome: 'idle' },
        ])
      ).status,
    ).toBe(404);
    expect((await post(route, [{ cdcCaptureId: 'ghost', reporterId: 'r', outcome: 'idle' }])).status).toBe(
      404,
    );
    const foreign = await post(route, [
      { cdcCaptureId: 'shipments', reporterId: 'r', outcome: 'idle', edgeNodeId: 'edge-b' },
    ]);
    expect(foreign.status).toBe(409);
    expect(foreign.body.detail).toContain('effectively owned by runtime "edge-runners"');
    const undeclaredEdge = await post('/engine/cdc-capture-runtimes/edge-runners/reports', [
      { cdcCaptureId: 'shipments', reporterId: 'r', outcome: 'idle', edgeNodeId: 'edge-z' },
    ]);
    expect([undeclaredEdge.status, undeclaredEdge.body.code]).toEqual([409, 'CDC_EDGE_NODE_NOT_DECLARED']);
    const edgeOk = await post('/engine/cdc-capture-runtimes/edge-runners/reports', [
      { cdcCaptureId: 'shipments', reporterId: 'r', outcome: 'idle', edgeNodeId: 'edge-b' },
    ]);
    expect(edgeOk.body.summary).toMatchObject({ observedEdgeNodeIds: ['edge-b'], lastEdgeNodeId: 'edge-b' });
    expect((await served.request('/engine/cdc-captures/runtime/edge-nodes/edge-b')).body).toHaveLength(1);
    expect(
      (await post(route, [{ cdcCaptureId: 'orders', reporterId: 'r', outcome: 'idle' }], 'wrong')).status,
    ).toBe(401);
    expect((await served.request('/engine/cdc-captures/runtime/orders')).body.lastOutcome).toBeNull();
  });

  it('refuses a reporter the runtime does not declare in ReporterIds with 409', async () => {
    const served = await serveData(
      {
        ...runtimes,
        CdcExecutionRuntimes: [
          { Id: 'debezium', Kind: 'external-managed', CdcCaptureIds: ['orders'], ReporterIds: ['dbz-1'] },
        ],
      },
      (builder) => declareCaptures(builder, [capture('orders')]),
    );
    const route = '/engine/cdc-capture-runtimes/debezium/reports';
    const stranger = await served.request(route, {
      token: 'ok',
      body: [{ cdcCaptureId: 'orders', reporterId: 'dbz-9', outcome: 'idle' }],
    });
    expect([stranger.status, stranger.body.code]).toEqual([409, 'CDC_REPORTER_NOT_DECLARED']);
    const known = await served.request(route, {
      token: 'ok',
      body: [{ cdcCaptureId: 'orders', reporterId: 'dbz-1', outcome: 'idle' }],
    });
    expect(known.status).toBe(200);
  });

  it('does not mount the report route unless EnableExternalCdcRuntimeReporting', async () => {
    const served = await serveData({ ...runtimes, EnableExternalCdcRuntimeReporting: false }, declare);
    const answer = await served.request('/engine/cdc-capture-runtimes/debezium/reports', {
      token: 'ok',
      body: [{ cdcCaptureId: 'orders', reporterId: 'r', outcome: 'idle' }],
    });
    expect(answer.status).toBe(404);
  });
});
