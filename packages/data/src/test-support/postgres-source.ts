import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the tests use: POSTGRES_URL, else the loopback server (trust auth, database `test`). */
export const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A source table with a monotonic `change_id` and, unless `transactionColumn` is null, the writing
 * transaction's id in `change_xid` (xid8, default `pg_current_xact_id()`); a unique outbox table name. Dropped
 * by `drop()`.
 */
export async function postgresSource(
  prefix = 'cdc',
  { transactionColumn = 'change_xid' }: { transactionColumn?: string | null } = {},
) {
  const suffix = randomBytes(4).toString('hex');
  const source = `${prefix}_src_${suffix}`;
  const outbox = `${prefix}_outbox_${suffix}`;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  const transaction =
    transactionColumn === null ? '' : `, ${transactionColumn} xid8 NOT NULL DEFAULT pg_current_xact_id()`;
  await client.query(
    `CREATE TABLE ${source} (change_id bigserial PRIMARY KEY, body text NOT NULL${transaction})`,
  );
  if (transactionColumn !== null) {
    await client.query(`CREATE INDEX ON ${source} (${transactionColumn}, change_id)`);
  }
  return {
    source,
    outbox,
    client,
    async insert(count: number) {
      await client.query(`INSERT INTO ${source} (body) SELECT 'row ' || g FROM generate_series(1, $1) g`, [
        count,
      ]);
    },
    async outboxRows(captureId: string): Promise<{ total: number; distinct: number; maxChange: number }> {
      const exists = await client.query('SELECT to_regclass($1) AS name', [outbox]);
      if (exists.rows[0].name === null) return { total: 0, distinct: 0, maxChange: 0 };
      const result = await client.query(
        `SELECT count(*)::int AS total, count(DISTINCT change_id)::int AS distinct, coalesce(max(change_id::bigint), 0)::int AS max_change
         FROM ${outbox} WHERE cdc_capture_id = $1`,
        [captureId],
      );
      const row = result.rows[0];
      return { total: row.total, distinct: row.distinct, maxChange: row.max_change };
    },
    async drop() {
      await client.query(`DROP TABLE IF EXISTS ${source}, ${outbox}, ${outbox}_acknowledgements`);
      await client.end();
    },
  };
}

export type PostgresSource = Awaited<ReturnType<typeof postgresSource>>;

/**
 * postgresSource() for one test file: answers a function that makes a source as postgresSource() does, and
 * registers an afterAll that drops every source it made.
 */
export function postgresSources(): (...args: Parameters<typeof postgresSource>) => Promise<PostgresSource> {
  const sources: PostgresSource[] = [];
  afterAll(async () => {
    await Promise.all(sources.map((source) => source.drop()));
  });
  return async (...args) => {
    const source = await postgresSource(...args);
    sources.push(source);
    return source;
  };
}
