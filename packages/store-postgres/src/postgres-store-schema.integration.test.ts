import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { requireService } from '@corekit/testing/require-service';
import { describeStoreSchemaConformance } from '@corekit/testing/store-schema-suite';
import { PostgresStoreProvider } from './postgres-store-provider';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Every table of this file starts with it; all are dropped at the end. */
const runPrefix = `corekit_schema_t${process.pid}_${randomBytes(3).toString('hex')}`;
let tables = 0;

beforeAll(async () => {
  if (!(await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL')))
    throw new Error(`PostgreSQL is not reachable at ${postgresUrl}: these tests need it`);
});

afterAll(async () => {
  const pool = new pg.Pool({ connectionString: postgresUrl });
  try {
    const { rows } = await pool.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE $1`,
      [`${runPrefix}%`],
    );
    for (const { tablename } of rows) await pool.query(`DROP TABLE IF EXISTS "${tablename}"`);
  } finally {
    await pool.end();
  }
});

describeStoreSchemaConformance('PostgresStoreProvider', {
  provider: () =>
    new PostgresStoreProvider({ connectionString: postgresUrl, tableName: `${runPrefix}_${(tables += 1)}` }),
  release: (provider) => provider.close(),
  markLaterLayout: async () => {
    const tableName = `${runPrefix}_${tables}`;
    const pool = new pg.Pool({ connectionString: postgresUrl });
    try {
      await pool.query(`COMMENT ON TABLE public."${tableName}" IS 'corekit-keyed-store layout 2'`);
    } finally {
      await pool.end();
    }
    return new PostgresStoreProvider({ connectionString: postgresUrl, tableName });
  },
});
