// A host process running the shared CDC capture pump with the logical-decoding provider over one source
// table, its state in a file store. Prints PASS <n> <durable checkpoint> every 10 ms until killed. SLOT,
// PUBLICATION and PUMP_REPORTER_ID override the defaults (corekit_orders, logical-pump-test).
import { createEngineBuilder } from '@corekit/engine-core';
import { dataRegistrationKey } from '@corekit/data';
import { addOrdersCapture } from '../test-support/orders-capture';

async function main() {
  const builder = createEngineBuilder({
    environment: {},
    logger: { log: () => undefined },
    configuration: { Engine: { Stores: { Provider: 'File', Directory: process.env.STORE_DIRECTORY! } } },
  });
  addOrdersCapture(builder, {
    url: process.env.POSTGRES_URL!,
    outbox: process.env.OUTBOX_TABLE!,
    metadata: {
      sourceTable: process.env.SOURCE_TABLE!,
      ...(process.env.SLOT ? { slot: process.env.SLOT } : {}),
      ...(process.env.PUBLICATION ? { publication: process.env.PUBLICATION } : {}),
    },
    pump: { BatchSize: 20, MaxBatchesPerPass: 1, PollIntervalMilliseconds: 10 },
    reporterId: process.env.PUMP_REPORTER_ID ?? 'logical-pump-test',
  });
  const engine = builder.build();
  await engine.start();
  const registration = engine.resolve(dataRegistrationKey)!;
  let passes = 0;
  for (;;) {
    const record = registration.runtime.book.record('orders');
    console.log(`PASS ${passes++} ${record.acknowledgement.durableCheckpoint ?? 'none'}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
