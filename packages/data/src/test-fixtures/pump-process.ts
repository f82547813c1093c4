// A host process running the shared CDC capture pump over one PostgreSQL source table, with its state in a
// file store. Prints PASS <n> <durable checkpoint> every 10 ms and DONE when the durable checkpoint reaches
// TARGET (without TARGET it runs until killed). TRANSACTION_COLUMN names the capture's transaction column.
import { createEngineBuilder } from '@corekit/engine-core';
import { addData, dataRegistrationKey } from '../index';

const target = process.env.TARGET;

async function main() {
  const builder = createEngineBuilder({
    environment: {},
    logger: { log: () => undefined },
    configuration: { Engine: { Stores: { Provider: 'File', Directory: process.env.STORE_DIRECTORY! } } },
  });
  builder.addModule({ id: 'orders', version: '1.0.0' });
  builder.addCatalogEntries('cdc-captures', 'orders', [
    {
      id: 'orders',
      displayName: 'Orders',
      sourceModuleId: 'orders',
      provider: 'postgresql',
      sourceId: 'test-db',
      mode: 'polling',
      eventFormat: 'json',
      metadata: {
        sourceTable: process.env.SOURCE_TABLE!,
        changeColumn: 'change_id',
        ...(process.env.TRANSACTION_COLUMN ? { transactionColumn: process.env.TRANSACTION_COLUMN } : {}),
      },
    },
  ]);
  addData(
    builder,
    {
      CapturePump: {
        PostgreSqlConnectionString: process.env.POSTGRES_URL!,
        PostgreSqlOutboxTable: process.env.OUTBOX_TABLE!,
        BatchSize: Number(process.env.BATCH_SIZE ?? 20),
        MaxBatchesPerPass: 1,
        PollIntervalMilliseconds: 10,
      },
    },
    { pumpReporterId: 'pump-test' },
  );
  const engine = builder.build();
  await engine.start();
  const registration = engine.resolve(dataRegistrationKey)!;
  let passes = 0;
  for (;;) {
    const record = registration.runtime.book.record('orders');
    console.log(`PASS ${passes++} ${record.acknowledgement.durableCheckpoint ?? 'none'}`);
    const checkpoint = record.acknowledgement.durableCheckpoint;
    // A guarded checkpoint is <transaction id>:<change id>.
    if (target !== undefined && checkpoint !== null && checkpoint.replace(/^\d+:/, '') === target) {
      console.log(
        `DONE ${JSON.stringify({ totalCaptured: record.totalCapturedChangeCount, totalProduced: record.totalProducedMessageCount })}`,
      );
      await engine.stop();
      process.exit(0);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
