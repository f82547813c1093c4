import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { requireService } from '@corekit/testing/require-service';
import { describeSharedStoreProvider } from '@corekit/testing/shared-store-provider-suite';
import { storeTestClock } from '@corekit/testing/store-contract-suite';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addPostgresStores } from './add-postgres-stores';
import { PostgresStoreProvider } from './postgres-store-provider';
import { sortKeyOf } from './sort-key';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Every table of this run starts with it, so parallel runs never share a table; all are dropped at the end. */
const runPrefix = `corekit_stores_t${process.pid}_${randomBytes(3).toString('hex')}`;
let tableCount = 0;
const freshTable = (): string => `${runPrefix}_${++tableCount}`;
let available: boolean | undefined;

async function ensureAvailable(): Promise<void> {
  available ??= await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
  if (!available) throw new Error(`PostgreSQL is not reachable at ${postgresUrl}: these tests need it`);
}

beforeAll(ensureAvailable);

afterAll(async () => {
  if (!available) return;
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

describeSharedStoreProvider('PostgresStoreProvider', {
  kind: 'postgresql',
  freshNamespace: freshTable,
  provider: async (tableName, options) => {
    await ensureAvailable();
    return new PostgresStoreProvider({ connectionString: postgresUrl, tableName, ...options });
  },
  replicas: {
    packageDirectory: path.resolve(__dirname, '..'),
    environment: { POSTGRES_URL: postgresUrl },
    prepare: (provider) => provider.ensureTable(),
  },
  telemetry: {
    system: 'postgresql',
    operations: ['INSERT', 'UPDATE', 'SELECT', 'WITH', 'DELETE', 'BEGIN', 'COMMIT'],
    collection: (tableName) => `public.${tableName}`,
  },
  unreachable: {
    provider: () =>
      new PostgresStoreProvider({
        connectionString: 'postgres://app:s3cr3t-pw@127.0.0.1:1/orders',
        connectTimeoutMs: 2000,
      }),
    secret: 's3cr3t-pw',
    message: /PostgreSQL store "things" failed on 127\.0\.0\.1:1\/orders: .*ECONNREFUSED/,
  },
  changeFeed: {
    path: 'postgresql-listen-notify',
    killFeedConnection: async (provider) => {
      const pool = new pg.Pool({ connectionString: postgresUrl });
      try {
        const { rows } = await pool.query(
          `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1`,
          [`corekit-store-feed public.${provider.tableName}`.slice(0, 63)],
        );
        if (rows.length === 0) throw new Error('no listening connection to kill');
      } finally {
        await pool.end();
      }
    },
    writeUnannounced: async (provider, store, key, value) => {
      // A write the trigger does not see (session_replication_role = replica skips triggers): a lost NOTIFY.
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`SET session_replication_role = replica`);
        await client.query(
          `INSERT INTO "${provider.tableName}" (store_name, key, sort_key, value, version, updated_at_ms)
           VALUES ($1, $2, $3, $4::json, 1, $5)`,
          [store, key, sortKeyOf(key), JSON.stringify(value), Date.now()],
        );
      } finally {
        await client.end();
      }
    },
  },
  registration: {
    section: (tableName) => ({
      Provider: 'PostgreSql',
      PostgreSql: { ConnectionString: postgresUrl, TableName: tableName },
    }),
    add: (builder) => addPostgresStores(builder),
  },
});

describe('PostgresStoreProvider on its table', () => {
  it('removes expired rows when a new key is written, so the table does not grow with dead leases', async () => {
    const table = freshTable();
    const clock = storeTestClock(Date.parse('2026-03-01T10:00:00Z'));
    const provider = new PostgresStoreProvider({ connectionString: postgresUrl, tableName: table, clock });
    const pool = new pg.Pool({ connectionString: postgresUrl });
    try {
      const store = provider.open<number>('replay');
      for (let index = 0; index < 5; index++) await store.put(`k${index}`, index, { ttlMs: 100 });
      clock.advance(100);
      await store.put('fresh', 1);
      const { rows } = await pool.query(`SELECT key FROM "${table}" WHERE store_name = 'replay'`);
      expect(rows.map((row) => row.key)).toEqual(['fresh']);
    } finally {
      await provider.close();
      await pool.end();
    }
  });
});

describe('addPostgresStores', () => {
  it('refuses an unknown key of its section, naming it, and keeps the connection string out of errors', () => {
    const { builder } = createTestEngineBuilder({
      configuration: {
        Engine: {
          Stores: { PostgreSql: { ConnectionString: 'postgres://u:hidden-pw@db/x', TableNmae: 'x' } },
        },
      },
    });
    let message = '';
    try {
      addPostgresStores(builder);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/Engine:Stores:PostgreSql.*TableNmae/);
    expect(message).not.toContain('hidden-pw');
  });

  it('refuses Engine:Stores:Provider File together with addPostgresStores at build, saying how to fix it', () => {
    const { builder } = createTestEngineBuilder({
      configuration: {
        Engine: {
          Stores: { Provider: 'File', Directory: 'state', PostgreSql: { ConnectionString: postgresUrl } },
        },
      },
    });
    addPostgresStores(builder);
    expect(() => builder.build()).toThrow(
      /Engine:Stores:Provider is File, but a package installed the postgresql store provider/,
    );
  });

  it('refuses a table name that is not a plain SQL identifier', () => {
    const { builder } = createTestEngineBuilder({
      configuration: {
        Engine: {
          Stores: { PostgreSql: { ConnectionString: postgresUrl, TableName: 'stores; DROP TABLE x' } },
        },
      },
    });
    expect(() => addPostgresStores(builder)).toThrow(/Engine:Stores:PostgreSql:TableName/);
  });
});
