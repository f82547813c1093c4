// The sample host's data demo: it starts without PostgreSQL and the capture reports that truthfully.
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addDataDemo } from './data-demo';

it('the data demo starts without PostgreSQL; the pump capture reports a provider failure, the external runtime accepts a report', async () => {
  const builder = createEngineBuilder({
    environment: {},
    contentRoot: __dirname,
    logger: createMemoryLogger(),
  });
  const registration = addDataDemo(builder, {
    CapturePump: {
      PostgreSqlConnectionString: 'postgres://postgres@127.0.0.1:1/test',
      PostgreSqlTimeoutMilliseconds: 300,
    },
  });
  const engine = builder.build();
  await engine.start();
  try {
    let outcome = await registration.pumpJob!.trigger();
    while (outcome.status === 'already-running') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      outcome = await registration.pumpJob!.trigger();
    }
    expect(engine.catalog('cdc-capture-states')!.find('stock-movements')).toMatchObject({
      lastOutcome: 'failed',
      failureKind: 'provider',
      executionBinding: { effectiveExecutionRuntimeId: 'data-cdc-capture-pump' },
    });
    const report = await engine.operations.invoke('data.report-cdc-runtime', {
      params: { executionRuntimeId: 'inventory-sync' },
      body: [
        {
          cdcCaptureId: 'inventory-snapshots',
          reporterId: 'connector-1',
          outcome: 'captured',
          capturedChangeCount: 4,
          producedMessageCount: 4,
        },
      ],
    });
    expect(report.body).toMatchObject({
      id: 'inventory-sync',
      summary: { totalCapturedChanges: 4, activeReporterId: 'connector-1' },
    });
    expect(engine.health().status).not.toBe('Unhealthy');
  } finally {
    await engine.stop();
  }
});
