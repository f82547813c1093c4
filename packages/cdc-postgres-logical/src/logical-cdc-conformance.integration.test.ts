import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeCdcProviderConformance,
  pollUntil,
  startFixture,
  startPostgresServer,
  type CdcConformanceSource,
  type PostgresServerProcess,
} from '@corekit/testing';
import pg from 'pg';
import { slotRow, startLogicalHost } from './test-support/logical-host';

// The CDC provider conformance suite of @corekit/testing on a PostgreSQL cluster of its own (wal_level =
// logical). Each source is its own table, outbox, slot, publication and File store folder; the kill check
// SIGKILLs a pump child process (tsx, src/test-fixtures/logical-pump-process.ts) mid-stream.
const password = 'logical-conformance-password';
let server: PostgresServerProcess;
let url: string;
let admin: pg.Client;

beforeAll(async () => {
  server = await startPostgresServer({
    password,
    settings: ['wal_level = logical', 'max_replication_slots = 8', 'max_wal_senders = 8'],
  });
  url = server.url.replace('postgres@', `postgres:${password}@`);
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
}, 120_000);

afterAll(async () => {
  await admin?.end();
  await server?.close();
});

/** Writers on their own connections: inserts, one transaction in five rolled back, one long transaction. */
async function writeConcurrently(
  table: string,
  options: { writers: number; idsPerWriter: number; firstId: number },
): Promise<number[]> {
  const committed: number[] = [];
  const long = new pg.Client({ connectionString: url });
  await long.connect();
  await long.query('BEGIN');
  const longId = options.firstId;
  await long.query(`INSERT INTO ${table} VALUES ($1)`, [longId]);
  await Promise.all(
    Array.from({ length: options.writers }, async (_, writer) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (let index = 0; index < options.idsPerWriter; index++) {
          const id = options.firstId + 1 + writer * options.idsPerWriter + index;
          await client.query('BEGIN');
          await client.query(`INSERT INTO ${table} VALUES ($1)`, [id]);
          if (index % 5 === 4) await client.query('ROLLBACK');
          else {
            await client.query('COMMIT');
            committed.push(id);
          }
        }
      } finally {
        await client.end();
      }
    }),
  );
  await long.query('COMMIT');
  await long.end();
  return [longId, ...committed];
}

const packageDirectory = join(__dirname, '..');

async function createSource(test: string): Promise<CdcConformanceSource> {
  const names = {
    table: `conf_${test}`,
    outbox: `conf_outbox_${test}`,
    slot: `conf_slot_${test}`,
    publication: `conf_pub_${test}`,
  };
  const directory = mkdtempSync(join(tmpdir(), `logical-conformance-${test}-`));
  const reporterId = `logical-conformance-${test}`;
  await admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY)`);
  await admin.query(`CREATE TABLE ${names.table}_elsewhere (body text)`);
  return {
    async start() {
      const host = await startLogicalHost({
        url,
        names,
        storeDirectory: directory,
        pump: { BatchSize: 200 },
      });
      return {
        pass: () => host.pass(),
        state: async () => host.state() as never,
        async acceptGap() {
          const outcome = await host.engine.operations.invoke('data.cdc-capture-accept-gap', {
            params: { cdcCaptureId: 'orders' },
            body: {},
          });
          expect(outcome.status).toBe(200);
        },
        stop: () => host.engine.stop(),
      };
    },
    async startKillable() {
      const child = startFixture(packageDirectory, 'logical-pump-process.ts', {
        POSTGRES_URL: url,
        SOURCE_TABLE: names.table,
        OUTBOX_TABLE: names.outbox,
        STORE_DIRECTORY: directory,
        SLOT: names.slot,
        PUBLICATION: names.publication,
        PUMP_REPORTER_ID: reporterId,
      });
      await child.waitForLine('PASS 1', 60_000);
      return {
        async kill() {
          child.child.kill('SIGKILL');
          await child.exited;
        },
      };
    },
    async insert(ids) {
      await admin.query(`INSERT INTO ${names.table} SELECT unnest($1::int[])`, [ids]);
    },
    writeConcurrently: (options) => writeConcurrently(names.table, options),
    async stagedIds() {
      const exists = await admin.query('SELECT to_regclass($1) AS name', [names.outbox]);
      if (exists.rows[0].name === null) return [];
      const rows = await admin.query(
        `SELECT (payload->'new'->>'id')::int AS id FROM ${names.outbox} ORDER BY id`,
      );
      return rows.rows.map((row: { id: number }) => row.id);
    },
    async losePosition() {
      await admin.query(
        'SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = $1 AND active_pid IS NOT NULL',
        [names.slot],
      );
      await pollUntil(
        () => slotRow(admin, names.slot),
        (row) => row?.active_pid === null,
        { timeoutMs: 10_000 },
      );
      await admin.query('SELECT pg_drop_replication_slot($1)', [names.slot]);
    },
    async writeElsewhere(bytes) {
      const rows = Math.ceil(bytes / 1024);
      await admin.query(
        `INSERT INTO ${names.table}_elsewhere SELECT repeat(md5(g::text), 32) FROM generate_series(1, $1) g`,
        [rows],
      );
    },
    async drop() {
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

describeCdcProviderConformance({ provider: 'postgresql-logical', createSource });
