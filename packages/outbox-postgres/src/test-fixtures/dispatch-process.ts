// A host process dispatching one PostgreSQL outbox. Every send is recorded in `<table>_sends` with this
// process's pid. With HANG_AFTER=n, sends after the n-th are recorded and then never confirmed (the
// process prints HUNG and waits to be killed), as a host dying mid-batch would leave them.
import pg from 'pg';
import { createEngineBuilder } from '@corekit/engine-core';
import { addEventing, useEventDispatcher } from '@corekit/eventing';
import { addPostgresOutbox } from '../add-postgres-outbox';

const url = process.env.POSTGRES_URL!;
const table = process.env.OUTBOX_TABLE!;
const hangAfter = Number(process.env.HANG_AFTER ?? '0');
const client = new pg.Client({ connectionString: url });
let sent = 0;

async function main() {
  await client.connect();
  const builder = createEngineBuilder({ environment: {}, logger: { log: () => undefined } });
  addEventing(builder, {
    Outbox: {
      Enabled: true,
      OutboxId: process.env.OUTBOX_ID!,
      DispatchIntervalMilliseconds: 20,
      BatchSize: 10,
      LeaseSeconds: Number(process.env.LEASE_SECONDS ?? '30'),
      RetryDelayMilliseconds: 0,
    },
  });
  // Dispatched rows are kept (the test counts them).
  addPostgresOutbox(builder, { ConnectionString: url, TableName: table, DispatchedRetentionMinutes: 60 });
  useEventDispatcher(builder, {
    id: 'recording-dispatcher',
    executionOwnership: 'provider-managed',
    async dispatch(message) {
      sent += 1;
      await client.query(`INSERT INTO ${table}_sends (id, pid) VALUES ($1, $2)`, [
        message.publicationId,
        process.pid,
      ]);
      if (hangAfter > 0 && sent > hangAfter) {
        console.log('HUNG');
        await new Promise(() => undefined);
      }
    },
  });
  const engine = builder.build();
  await engine.start();
  console.log(`READY ${process.pid}`);
  process.on(
    'SIGTERM',
    () =>
      void engine
        .stop()
        .then(() => client.end())
        .then(() => process.exit(0)),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
