// Changes per second from a PostgreSQL source table into an outbox table: the data pack's capture pump
// (engine, memory store, acknowledgement, state reporting) against a bare loop doing the same batch read and
// insert in one transaction. Same batch size, same database, alternating rounds; prints medians and ratios.
import { createEngineBuilder } from '@corekit/engine-core';
import { addData, dataRegistrationKey } from '@corekit/data';
import pg from 'pg';

const url = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? '3');
const batchSize = Number(process.env.BENCH_BATCH_SIZE ?? '500');
const source = 'bench_cdc_source';
const outbox = 'bench_cdc_outbox';

const client = new pg.Client({ connectionString: url });

async function prepare(rows: number) {
  await client.query(`DROP TABLE IF EXISTS ${source}, ${outbox}, ${outbox}_acknowledgements`);
  await client.query(
    `CREATE TABLE ${source} (change_id bigserial PRIMARY KEY, sku text NOT NULL, quantity int NOT NULL,
      change_xid xid8 NOT NULL DEFAULT pg_current_xact_id())`,
  );
  await client.query(`CREATE INDEX ON ${source} (change_xid, change_id)`);
  await client.query(
    `INSERT INTO ${source} (sku, quantity) SELECT 'sku-' || g, g % 97 FROM generate_series(1, $1) g`,
    [rows],
  );
  await client.query(`CREATE TABLE ${outbox} (id bigserial PRIMARY KEY, cdc_capture_id text NOT NULL, change_id text NOT NULL,
    source_table text NOT NULL, event_format text NOT NULL, payload jsonb NOT NULL, staged_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (cdc_capture_id, change_id))`);
  await client.query(
    `CREATE TABLE ${outbox}_acknowledgements (cdc_capture_id text PRIMARY KEY, checkpoint text NOT NULL, acknowledged_at timestamptz NOT NULL DEFAULT now())`,
  );
  await client.query(`VACUUM ANALYZE ${source}`);
}

async function bare(rows: number): Promise<number> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let checkpoint = 0;
  while (checkpoint < rows) {
    await client.query('BEGIN');
    const batch = await client.query(
      `SELECT change_id::text AS change_id, to_jsonb(s) AS payload FROM ${source} s WHERE s.change_id > $1 ORDER BY s.change_id LIMIT $2`,
      [checkpoint, batchSize],
    );
    await client.query(
      `INSERT INTO ${outbox} (cdc_capture_id, change_id, source_table, event_format, payload)
       SELECT 'bare', c, $1, 'json', p FROM unnest($2::text[], $3::jsonb[]) AS t(c, p) ON CONFLICT DO NOTHING`,
      [source, batch.rows.map((row) => row.change_id), batch.rows.map((row) => JSON.stringify(row.payload))],
    );
    await client.query('COMMIT');
    checkpoint = Number(batch.rows.at(-1).change_id);
  }
  await client.end();
  return performance.now() - started;
}

/**
 * The tighter baseline: the provider's own single statement (read up to the oldest running transaction and
 * insert server-side, in (transaction id, change id) order), run bare.
 */
async function bareStatement(rows: number): Promise<number> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let position = { transaction: '0', change: '0' };
  while (Number(position.change) < rows) {
    const result = await client.query(
      `WITH batch AS (SELECT s.change_xid AS change_transaction, s.change_id AS change_value, to_jsonb(s) AS payload
         FROM ${source} s
         WHERE s.change_xid < pg_snapshot_xmin(pg_current_snapshot()) AND (s.change_xid, s.change_id) > ($3::xid8, $4)
         ORDER BY s.change_xid, s.change_id LIMIT $2),
       inserted AS (INSERT INTO ${outbox} (cdc_capture_id, change_id, source_table, event_format, payload)
         SELECT 'bare-statement', b.change_value::text, $1, 'json', b.payload FROM batch b ON CONFLICT DO NOTHING RETURNING 1),
       last AS (SELECT change_transaction, change_value FROM batch ORDER BY change_transaction DESC, change_value DESC LIMIT 1)
       SELECT (SELECT count(*) FROM inserted)::int AS produced, (SELECT change_value::text FROM last) AS last_change,
         (SELECT change_transaction::text FROM last) AS last_transaction`,
      [source, batchSize, position.transaction, position.change],
    );
    position = { transaction: result.rows[0].last_transaction, change: result.rows[0].last_change };
  }
  await client.end();
  return performance.now() - started;
}

async function pump(rows: number): Promise<{ milliseconds: number; heapGrowthMb: number }> {
  const builder = createEngineBuilder({ environment: {}, logger: { log: () => undefined } });
  builder.addModule({ id: 'bench', version: '1.0.0' });
  builder.addCatalogEntries('cdc-captures', 'bench', [
    {
      id: 'pump',
      displayName: 'Bench',
      sourceModuleId: 'bench',
      provider: 'postgresql',
      sourceId: 'bench',
      mode: 'polling',
      eventFormat: 'json',
      metadata: { sourceTable: source, changeColumn: 'change_id', transactionColumn: 'change_xid' },
    },
  ]);
  addData(builder, {
    CapturePump: {
      PostgreSqlConnectionString: url,
      PostgreSqlOutboxTable: outbox,
      BatchSize: batchSize,
      MaxBatchesPerPass: 1000,
      PollIntervalMilliseconds: 3_600_000,
    },
    ChangeStreamPump: { Enabled: false },
  });
  const engine = builder.build();
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  // Timed from start (the pump's startup pass begins the work; its pool connects inside the timing, as the
  // bare loop's client does) until the durable checkpoint reaches the last row.
  const started = performance.now();
  await engine.start();
  const registration = engine.resolve(dataRegistrationKey)!;
  // The checkpoint is <transaction id>:<change id>.
  while (!registration.runtime.book.record('pump').acknowledgement.durableCheckpoint?.endsWith(`:${rows}`)) {
    const outcome = await registration.pumpJob!.trigger();
    if (outcome.status === 'failed') throw new Error(outcome.error);
    if (outcome.status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const milliseconds = performance.now() - started;
  globalThis.gc?.();
  const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  await engine.stop();
  return { milliseconds, heapGrowthMb };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  await client.connect();
  let failed = false;
  for (const rows of sizes) {
    await prepare(rows);
    const bareRates: number[] = [];
    const statementRates: number[] = [];
    const pumpRates: number[] = [];
    const heap: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await client.query(`TRUNCATE ${outbox}, ${outbox}_acknowledgements`);
      bareRates.push(rows / ((await bare(rows)) / 1000));
      await client.query(`TRUNCATE ${outbox}, ${outbox}_acknowledgements`);
      statementRates.push(rows / ((await bareStatement(rows)) / 1000));
      await client.query(`TRUNCATE ${outbox}, ${outbox}_acknowledgements`);
      const result = await pump(rows);
      pumpRates.push(rows / (result.milliseconds / 1000));
      heap.push(result.heapGrowthMb);
    }
    const ratio = median(pumpRates) / median(bareRates);
    const statementRatio = median(pumpRates) / median(statementRates);
    failed ||= ratio < 0.8;
    console.log(
      `${rows} rows, batch ${batchSize}: bare loop ${median(bareRates).toFixed(0)} changes/s, bare statement ${median(statementRates).toFixed(0)} changes/s, pump ${median(pumpRates).toFixed(0)} changes/s; ratio pump/bare loop ${ratio.toFixed(2)}, pump/bare statement ${statementRatio.toFixed(2)}; pump heap growth ${heap.map((value) => value.toFixed(1)).join('/')} MB`,
    );
  }
  await client.query(`DROP TABLE IF EXISTS ${source}, ${outbox}, ${outbox}_acknowledgements`);
  await client.end();
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
