import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  createTestEngineBuilder,
  describeStoreContract,
  requireService,
  startFixture,
  storeTestClock,
  type FixtureProcess,
} from '@corekit/testing';
import { addPostgresStores } from './add-postgres-stores';
import { PostgresStoreProvider } from './postgres-store-provider';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const packageDirectory = path.resolve(__dirname, '..');
/** Every table of this run starts with it, so parallel runs never share a table; all are dropped at the end. */
const runPrefix = `corekit_stores_t${process.pid}_${randomBytes(3).toString('hex')}`;
let tableCount = 0;
const freshTable = (): string => `${runPrefix}_${++tableCount}`;
let available: boolean | undefined;
const children: FixtureProcess[] = [];

async function ensureAvailable(): Promise<void> {
  available ??= await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
  if (!available) throw new Error(`PostgreSQL is not reachable at ${postgresUrl}: these tests need it`);
}

beforeAll(ensureAvailable);

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    await child.exited;
  }
});

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

describeStoreContract('PostgresStoreProvider', async (options) => {
  await ensureAvailable();
  return new PostgresStoreProvider({ connectionString: postgresUrl, tableName: freshTable(), ...options });
});

describe('PostgresStoreProvider across processes and instances', () => {
  it('says what it is: postgresql, durable, shared', () => {
    expect(new PostgresStoreProvider({ connectionString: postgresUrl })).toMatchObject({
      kind: 'postgresql',
      durable: true,
      shared: true,
    });
  });

  it('two processes incrementing one key by compare-and-set lose no update', async () => {
    const table = freshTable();
    const setup = new PostgresStoreProvider({ connectionString: postgresUrl, tableName: table });
    await setup.ensureTable();
    try {
      const environment = { POSTGRES_URL: postgresUrl, STORE_TABLE: table, INCREMENTS: '100' };
      const processes = [0, 1].map(() => startFixture(packageDirectory, 'increment-process.ts', environment));
      children.push(...processes);
      await Promise.all(processes.map((child) => child.waitForLine('DONE', 60_000)));
      expect(await Promise.all(processes.map((child) => child.exited))).toEqual([0, 0]);
      // The two processes really raced: at least one compare-and-set lost and was retried.
      const retries = processes.map((child) => Number(/RETRIES (\d+)/.exec(child.lines.join('\n'))![1]));
      expect(retries[0] + retries[1]).toBeGreaterThan(0);
      const record = await setup.open<number>('counter').get('n');
      expect(record).toMatchObject({ value: 200, version: 200 });
    } finally {
      await setup.close();
    }
  }, 90_000);

  it('sees one store from two providers with their own pools: versions, TTL and STORE_FULL hold across them', async () => {
    const table = freshTable();
    const clock = storeTestClock(Date.parse('2026-03-01T10:00:00Z'));
    const first = new PostgresStoreProvider({ connectionString: postgresUrl, tableName: table, clock });
    const second = new PostgresStoreProvider({ connectionString: postgresUrl, tableName: table, clock });
    try {
      const a = first.open<string>('leases', { maxEntries: 2 });
      const b = second.open<string>('leases', { maxEntries: 2 });
      expect((await a.put('lease', 'first', { expectedVersion: 0, ttlMs: 1000 })).written).toBe(true);
      expect(await b.put('lease', 'second', { expectedVersion: 0 })).toMatchObject({
        written: false,
        current: { value: 'first', version: 1 },
      });
      await b.put('other', 'b');
      await expect(a.put('third', 'a')).rejects.toMatchObject({ code: 'STORE_FULL' });
      clock.advance(1000);
      expect(await b.get('lease')).toBeUndefined();
      expect(await a.count()).toBe(1);
      expect((await b.put('lease', 'second', { expectedVersion: 0 })).written).toBe(true);
      expect((await a.get('lease'))?.value).toBe('second');
      await expect(b.put('third', 'b')).rejects.toMatchObject({ code: 'STORE_FULL' });
    } finally {
      await first.close();
      await second.close();
    }
  });

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

  it('reconnects after close (the engine closes on stop; a later start uses the stores again)', async () => {
    const provider = new PostgresStoreProvider({ connectionString: postgresUrl, tableName: freshTable() });
    const store = provider.open<number>('again');
    await store.put('a', 1);
    await provider.close();
    expect((await store.get('a'))?.value).toBe(1);
    await provider.close();
  });

  it('fails a call on an unreachable server with STORE_UNAVAILABLE naming the server, never the password', async () => {
    const provider = new PostgresStoreProvider({
      connectionString: 'postgres://app:s3cr3t-pw@127.0.0.1:1/orders',
      connectTimeoutMs: 2000,
    });
    const error = await provider
      .open('things')
      .get('a')
      .then(
        () => undefined,
        (caught: Error & { code?: string }) => caught,
      );
    expect(error?.code).toBe('STORE_UNAVAILABLE');
    expect(error?.message).toMatch(
      /PostgreSQL store "things" failed on 127\.0\.0\.1:1\/orders: .*ECONNREFUSED/,
    );
    expect(JSON.stringify({ message: error?.message, stack: error?.stack })).not.toContain('s3cr3t-pw');
    await provider.close();
  });
});

describe('addPostgresStores', () => {
  it('serves stores opened before it (addEventing-style order) and closes the pool when the engine stops', async () => {
    const table = freshTable();
    const { builder } = createTestEngineBuilder({
      configuration: {
        Engine: {
          Stores: { Provider: 'PostgreSql', PostgreSql: { ConnectionString: postgresUrl, TableName: table } },
        },
      },
    });
    const early = builder.openStore<{ n: number }>('early');
    const provider = addPostgresStores(builder);
    const engine = builder.build();
    expect(builder.storeTraits()).toEqual({ kind: 'postgresql', durable: true, shared: true });
    await engine.start();
    await early.put('a', { n: 1 });
    const direct = new PostgresStoreProvider({ connectionString: postgresUrl, tableName: table });
    expect((await direct.open<{ n: number }>('early').get('a'))?.value).toEqual({ n: 1 });
    await direct.close();
    const ended = jest.spyOn(provider, 'close');
    await engine.stop();
    expect(ended).toHaveBeenCalledTimes(1);
  });

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
