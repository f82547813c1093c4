// The logical-decoding provider against the polling pump, same run, same rows, on a PostgreSQL cluster of its
// own (`wal_level = logical`, started from the machine's binaries): changes per second from the moment the
// engine starts until every change is staged, both through the shared capture pump (memory store, same batch).
// Streaming runs with `snapshotMode: never` on a slot made before the rows (what it measured before the
// initial snapshot existed); the snapshot rate is a third capture that reads the same rows as its initial
// snapshot (`initial`, a fresh slot made by the provider) until `snapshotState` is done.
import { createEngineBuilder } from '@corekit/engine-core';
import { addData, dataRegistrationKey } from '@corekit/data';
import { addPostgresLogicalDecoding } from '@corekit/cdc-postgres-logical';
import { startPostgresServer } from '@corekit/testing/servers/postgres-server';
import pg from 'pg';

const rows = Number(process.env.BENCH_LOGICAL_ROWS ?? '20000');
const rounds = Number(process.env.BENCH_ROUNDS ?? '3');
const batchSize = Number(process.env.BENCH_BATCH_SIZE ?? '500');
const rowsPerTransaction = 100;
const source = 'bench_logical_source';
const password = 'bench-logical';

type Kind = 'polling' | 'logical' | 'snapshot';

async function capture(url: string, kind: Kind, outbox: string): Promise<number> {
  const builder = createEngineBuilder({ environment: {}, logger: { log: () => undefined } });
  builder.addModule({ id: 'bench', version: '1.0.0' });
  builder.addCatalogEntries('cdc-captures', 'bench', [
    {
      id: kind,
      displayName: kind,
      sourceModuleId: 'bench',
      provider: kind === 'polling' ? 'postgresql' : 'postgresql-logical',
      sourceId: 'bench',
      mode: kind,
      eventFormat: 'json',
      metadata: {
        sourceTable: source,
        slot: kind === 'snapshot' ? 'bench_snapshot_slot' : 'bench_slot',
        publication: 'bench_publication',
        ...(kind === 'polling' ? {} : { snapshotMode: kind === 'snapshot' ? 'initial' : 'never' }),
      },
    },
  ]);
  addData(builder, {
    CapturePump: {
      PostgreSqlConnectionString: url,
      PostgreSqlOutboxTable: outbox,
      CdcCaptureIds: kind === 'polling' ? [] : [kind],
      BatchSize: batchSize,
      MaxBatchesPerPass: 1000,
      PollIntervalMilliseconds: 3_600_000,
    },
    ChangeStreamPump: { Enabled: false },
  });
  if (kind !== 'polling') addPostgresLogicalDecoding(builder, { ConnectionString: url, OutboxTable: outbox });
  const engine = builder.build();
  const started = performance.now();
  await engine.start();
  const registration = engine.resolve(dataRegistrationKey)!;
  const done = () => {
    const record = registration.runtime.book.record(kind);
    return kind === 'snapshot'
      ? record.metadata.snapshotState === 'done'
      : record.totalCapturedChangeCount >= rows;
  };
  while (!done()) {
    const outcome = await registration.pumpJob!.trigger();
    if (outcome.status === 'failed') throw new Error(outcome.error);
    const record = registration.runtime.book.record(kind);
    if (record.lastOutcome === 'failed') throw new Error(`${kind} capture failed: ${record.error}`);
    if (outcome.status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const milliseconds = performance.now() - started;
  await engine.stop();
  return milliseconds;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const server = await startPostgresServer({
    password,
    settings: ['wal_level = logical', 'max_replication_slots = 4', 'max_wal_senders = 4'],
  });
  const url = server.url.replace('postgres@', `postgres:${password}@`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE TABLE ${source} (change_id bigserial PRIMARY KEY, sku text NOT NULL,
      quantity int NOT NULL, change_xid xid8 NOT NULL DEFAULT pg_current_xact_id())`);
    await client.query(`CREATE INDEX ON ${source} (change_xid, change_id)`);
    await client.query(`CREATE PUBLICATION bench_publication FOR TABLE ${source}`);
    const polling: number[] = [];
    const logical: number[] = [];
    const snapshot: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // The same rows for both: a fresh slot, then the rows in transactions of 100, then both captures.
      await client.query(`TRUNCATE ${source}`);
      await client.query(
        `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'bench_slot'`,
      );
      await client.query(`SELECT pg_create_logical_replication_slot('bench_slot', 'pgoutput')`);
      for (let offset = 0; offset < rows; offset += rowsPerTransaction) {
        await client.query(
          `INSERT INTO ${source} (sku, quantity) SELECT 'sku-' || g, g % 97 FROM generate_series(1, $1) g`,
          [Math.min(rowsPerTransaction, rows - offset)],
        );
      }
      await client.query(
        `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'bench_snapshot_slot'`,
      );
      await client.query(
        `DROP TABLE IF EXISTS bench_outbox_polling, bench_outbox_logical, bench_outbox_snapshot`,
      );
      const order: readonly Kind[] =
        round % 2 === 0 ? ['polling', 'logical', 'snapshot'] : ['snapshot', 'logical', 'polling'];
      for (const kind of order) {
        const milliseconds = await capture(url, kind, `bench_outbox_${kind}`);
        ({ polling, logical, snapshot })[kind].push(rows / (milliseconds / 1000));
      }
      console.log(
        `    round ${round + 1}: polling pump ${polling.at(-1)!.toFixed(0)} changes/s, logical decoding ${logical.at(-1)!.toFixed(0)} changes/s, initial snapshot ${snapshot.at(-1)!.toFixed(0)} rows/s`,
      );
    }
    console.log(
      `logical decoding vs polling pump, ${rows} rows in transactions of ${rowsPerTransaction}, batch ${batchSize}: polling ${median(polling).toFixed(0)} changes/s, logical ${median(logical).toFixed(0)} changes/s, ratio logical/polling ${(median(logical) / median(polling)).toFixed(2)}; initial snapshot ${median(snapshot).toFixed(0)} rows/s, ratio snapshot/polling ${(median(snapshot) / median(polling)).toFixed(2)}`,
    );
  } finally {
    await client.end();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
