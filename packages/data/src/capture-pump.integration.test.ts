import type { EngineBuilder } from '@corekit/abstractions';
import { captureTelemetry } from '@corekit/testing/capture-telemetry';
import { expectDatabaseClientTelemetry } from '@corekit/testing/semantic-convention-expectations';
import { cdcPollingProvidersKey, type CdcPollingProvider } from './polling-provider';
import { PostgresPollingProvider } from './postgres-polling-provider';
import {
  capture,
  closeHosts,
  declareCaptures,
  passNow,
  serveData,
  type ServedData,
} from './test-support/data-fixture';
import { postgresSources, postgresUrl } from './test-support/postgres-source';

// Real PostgreSQL (POSTGRES_URL or 127.0.0.1:5432, database test): never skipped.
afterEach(closeHosts);

const newSource = postgresSources();
/** Runs one pump pass now (waits out the startup pass when it is still running). */
const pass = (served: ServedData) => passNow(served, { failedThrows: true });

function pumpOptions(outbox: string, extra: Record<string, unknown> = {}) {
  return {
    CapturePump: {
      PostgreSqlConnectionString: postgresUrl,
      PostgreSqlOutboxTable: outbox,
      BatchSize: 10,
      PollIntervalMilliseconds: 3_600_000,
      // Each test triggers its passes: a failing capture is tried again on every one (no backoff).
      FailureBackoffMilliseconds: 0,
      ...extra,
    },
  };
}

const pgCapture = (id: string, table: string) =>
  capture(id, {
    provider: 'postgresql',
    sourceId: 'test-db',
    metadata: { sourceTable: table, changeColumn: 'change_id' },
  });

describe('the shared polling pump with the PostgreSQL provider (real server)', () => {
  it('stages every change after the checkpoint into the outbox, acknowledges, and reports state on every surface', async () => {
    const source = await newSource();
    await source.insert(25);
    const served = await serveData(pumpOptions(source.outbox), (builder) =>
      declareCaptures(builder, [pgCapture('orders', source.source)]),
    );
    await pass(served);
    expect(await source.outboxRows('orders')).toEqual({ total: 25, distinct: 25, maxChange: 25 });
    const state = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(state).toMatchObject({
      lastOutcome: expect.stringMatching(/captured|idle/),
      checkpoint: expect.stringMatching(/^\d+:25$/),
      changeId: '25',
      totalCapturedChangeCount: 25,
      totalProducedMessageCount: 25,
      acknowledgement: {
        state: 'acknowledged',
        durableCheckpoint: expect.stringMatching(/^\d+:25$/),
        pendingCheckpoint: null,
      },
      completeness: { state: 'guaranteed', reason: null },
      acknowledgerServiceType: 'postgresql-outbox-acknowledgement',
      failureKind: null,
      executionBinding: {
        effectiveExecutionRuntimeId: 'data-cdc-capture-pump',
        resolvedOwnershipMode: 'host-managed',
      },
      reporterCoordination: { activeReporterCount: 1 },
    });
    await source.insert(5);
    const next = await pass(served);
    expect(next.captures).toEqual([
      expect.objectContaining({ cdcCaptureId: 'orders', capturedChangeCount: 5, producedMessageCount: 5 }),
    ]);
    expect(await source.outboxRows('orders')).toEqual({ total: 30, distinct: 30, maxChange: 30 });

    const graph = (await served.request('/engine/execution-graphs/data-cdc-capture-flow')).body;
    expect(graph.nodes.map((node: { id: string }) => node.id)).toEqual([
      'read-cdc-changes',
      'stage-cdc-outbox',
      'acknowledge-cdc-progress',
      'report-cdc-runtime-state',
    ]);
    expect(
      (await served.request('/engine/hosted-executions/data-cdc-capture-pump')).body.executionGraphId,
    ).toBe('data-cdc-capture-flow');
    const story = JSON.stringify((await served.request('/engine/runtime-story')).body);
    expect(story).toContain('data-cdc-capture-pump');
    const snapshot = (await served.request('/engine/snapshot')).body;
    expect(snapshot.cdcCaptureStates[0].totalCapturedChangeCount).toBe(30);
    expect(snapshot.cdcCaptureExecutionRuntimes[0]).toMatchObject({
      id: 'data-cdc-capture-pump',
      executionTopology: 'shared-in-process-polling',
      acknowledgementMode: 'post-stage-provider',
      hostedExecutionId: 'data-cdc-capture-pump',
      executionGraphId: 'data-cdc-capture-flow',
      summary: { totalCapturedChanges: 30, totalProducedMessages: 30, latestAcknowledgement: 'acknowledged' },
    });
    const surfaces = (await served.request('/engine/technology-surfaces')).body;
    expect(JSON.stringify(surfaces)).toContain('"kind":"cdc-capture-pumps"');
    expect(JSON.stringify(surfaces)).not.toContain('postgres://');
  });

  it('measures and traces every polling statement per the database-client conventions', async () => {
    const telemetry = captureTelemetry();
    try {
      const source = await newSource();
      await source.insert(3);
      const served = await serveData(pumpOptions(source.outbox), (builder) =>
        declareCaptures(builder, [pgCapture('measured', source.source)]),
      );
      await pass(served);
      expect(await source.outboxRows('measured')).toMatchObject({ total: 3 });
      // The staging read names its source table first; the acknowledgement writes its own table.
      await expectDatabaseClientTelemetry(telemetry, {
        system: 'postgresql',
        operations: ['WITH'],
        collection: source.source,
      });
      await expectDatabaseClientTelemetry(telemetry, {
        system: 'postgresql',
        operations: ['INSERT'],
        collection: `${source.outbox}_acknowledgements`,
      });
    } finally {
      await telemetry.stop();
    }
  });

  it('on acknowledgement failure keeps the pending checkpoint visible, does not advance the durable one, and re-stages nothing twice', async () => {
    const source = await newSource();
    await source.insert(10);
    const real = new PostgresPollingProvider({
      connectionString: postgresUrl,
      outboxTable: source.outbox,
      timeoutMilliseconds: 10_000,
    });
    let failAcknowledgement = true;
    const flaky: CdcPollingProvider = {
      provider: 'postgresql',
      acknowledgerServiceType: real.acknowledgerServiceType,
      stageBatch: (request) => real.stageBatch(request),
      acknowledge: async (request) => {
        if (failAcknowledgement) throw new Error('acknowledgement ledger unavailable');
        await real.acknowledge(request);
      },
      close: () => real.close(),
    };
    const served = await serveData(pumpOptions(source.outbox), (builder: EngineBuilder) => {
      declareCaptures(builder, [pgCapture('orders', source.source)]);
      builder.provide(cdcPollingProvidersKey, [flaky]);
    });
    await pass(served);
    expect(await source.outboxRows('orders')).toEqual({ total: 10, distinct: 10, maxChange: 10 });
    const failed = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(failed).toMatchObject({
      lastOutcome: 'failed',
      failureKind: 'acknowledgement',
      checkpoint: null,
      changeId: '10',
      error: expect.stringContaining('acknowledgement ledger unavailable'),
      acknowledgement: {
        state: 'failed',
        durableCheckpoint: null,
        pendingCheckpoint: expect.stringMatching(/^\d+:10$/),
        pendingChangeId: '10',
      },
    });
    await pass(served);
    expect(
      (await served.request('/engine/cdc-captures/runtime/orders')).body.acknowledgement.pendingCheckpoint,
    ).toMatch(/^\d+:10$/);

    failAcknowledgement = false;
    const retried = await pass(served);
    expect(retried.captures[0]).toMatchObject({ capturedChangeCount: 10, producedMessageCount: 0 });
    expect(await source.outboxRows('orders')).toEqual({ total: 10, distinct: 10, maxChange: 10 });
    const recovered = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(recovered).toMatchObject({
      failureKind: null,
      checkpoint: expect.stringMatching(/^\d+:10$/),
      totalProducedMessageCount: 10,
      acknowledgement: {
        state: 'acknowledged',
        durableCheckpoint: expect.stringMatching(/^\d+:10$/),
        pendingCheckpoint: null,
      },
    });
  });

  it('a source without a transaction column is captured but its state says a change may be skipped, and why', async () => {
    const source = await newSource('cdcnoxid', { transactionColumn: null });
    await source.insert(7);
    const served = await serveData(pumpOptions(source.outbox), (builder) =>
      declareCaptures(builder, [pgCapture('orders', source.source)]),
    );
    await pass(served);
    expect(await source.outboxRows('orders')).toEqual({ total: 7, distinct: 7, maxChange: 7 });
    const state = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(state).toMatchObject({
      checkpoint: '7',
      acknowledgement: { state: 'acknowledged', durableCheckpoint: '7' },
      completeness: {
        state: 'not-guaranteed',
        reason: expect.stringContaining(`ADD COLUMN "change_xid" xid8 NOT NULL DEFAULT pg_current_xact_id()`),
      },
    });
    expect(state.completeness.reason).toContain(source.source);
    await pass(served);
    expect((await served.request('/engine/cdc-captures/runtime/orders')).body.completeness.state).toBe(
      'not-guaranteed',
    );
  });

  it('a checkpoint written before the source had its transaction column resumes after its change value', async () => {
    const source = await newSource();
    await source.insert(12);
    const provider = new PostgresPollingProvider({
      connectionString: postgresUrl,
      outboxTable: source.outbox,
      timeoutMilliseconds: 10_000,
    });
    const orders = {
      ...pgCapture('orders', source.source),
      description: '',
      tags: [],
      metadata: { sourceTable: source.source, changeColumn: 'change_id' },
    };
    try {
      const batch = await provider.stageBatch({
        capture: orders,
        checkpoint: '5',
        batchSize: 100,
      });
      expect(batch).toMatchObject({ capturedChangeCount: 7, producedMessageCount: 7, lastChangeId: '12' });
      expect(batch.nextCheckpoint).toMatch(/^\d+:12$/);
      expect(batch.completeness).toEqual({ state: 'guaranteed', reason: null });
      const next = await provider.stageBatch({
        capture: orders,
        checkpoint: batch.nextCheckpoint,
        batchSize: 100,
      });
      expect(next).toMatchObject({ capturedChangeCount: 0, nextCheckpoint: null });
      expect(await source.outboxRows('orders')).toEqual({ total: 7, distinct: 7, maxChange: 12 });
    } finally {
      await provider.close();
    }
  });

  it('reports a missing source table on that capture and keeps serving the others', async () => {
    const source = await newSource();
    await source.insert(3);
    const served = await serveData(pumpOptions(source.outbox), (builder) =>
      declareCaptures(builder, [
        pgCapture('ghost', 'no_such_table_here'),
        pgCapture('orders', source.source),
      ]),
    );
    const result = await pass(served);
    expect(result.captures.map((item) => [item.cdcCaptureId, item.outcome])).toEqual([
      ['ghost', 'failed'],
      ['orders', 'captured'],
    ]);
    expect((await served.request('/engine/cdc-captures/runtime/ghost')).body).toMatchObject({
      lastOutcome: 'failed',
      failureKind: 'source',
      error: expect.stringContaining('does not exist'),
    });
    expect(await source.outboxRows('orders')).toMatchObject({ total: 3 });
    const story = JSON.stringify((await served.request('/engine/runtime-story')).body);
    expect(story).toContain('failed:source');
  });

  it('without a reachable PostgreSQL the capture reports a provider failure and the host keeps serving', async () => {
    const served = await serveData(
      {
        CapturePump: {
          PostgreSqlConnectionString: 'postgres://postgres@127.0.0.1:1/test',
          PostgreSqlTimeoutMilliseconds: 500,
          PollIntervalMilliseconds: 3_600_000,
        },
      },
      (builder) => declareCaptures(builder, [pgCapture('orders', 'whatever')]),
    );
    await pass(served);
    expect((await served.request('/engine/cdc-captures/runtime/orders')).body).toMatchObject({
      lastOutcome: 'failed',
      failureKind: 'provider',
      error: expect.stringContaining('PostgreSQL unavailable'),
    });
    expect((await served.request('/health/live')).status).toBe(200);
  });

  it('without a connection string the capture says which key to set', async () => {
    const served = await serveData({ CapturePump: { PollIntervalMilliseconds: 3_600_000 } }, (builder) =>
      declareCaptures(builder, [pgCapture('orders', 'whatever')]),
    );
    await pass(served);
    expect((await served.request('/engine/cdc-captures/runtime/orders')).body).toMatchObject({
      failureKind: 'provider',
      error: expect.stringContaining('Engine:Data:CapturePump:PostgreSqlConnectionString'),
    });
  });
});
