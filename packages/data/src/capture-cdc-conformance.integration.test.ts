import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  describeCdcProviderConformance,
  startKillableFixture,
  type CdcConformanceSource,
} from '@corekit/testing/cdc-provider-conformance';
import { writeSqlConcurrently } from '@corekit/testing/sql-concurrent-writers';
import pg from 'pg';
import { startConformanceHost } from './test-support/conformance-host';
import { postgresUrl } from './test-support/postgres-source';

// The CDC provider conformance suite of @corekit/testing on the PostgreSQL polling provider, against the real
// server (POSTGRES_URL or 127.0.0.1:5432, database test): each source is its own table (with the change_xid
// transaction column), outbox and File store folder; the kill check SIGKILLs a pump child process (tsx,
// src/test-fixtures/pump-process.ts, reporter pump-test) mid-stream.
let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
});

async function createSource(test: string): Promise<CdcConformanceSource> {
  const suffix = randomBytes(4).toString('hex');
  const table = `cdcconf_${test}_${suffix}`;
  const outbox = `cdcconf_outbox_${test}_${suffix}`;
  const directory = mkdtempSync(join(tmpdir(), `polling-conformance-${test}-`));
  await admin.query(
    `CREATE TABLE ${table} (change_id bigserial PRIMARY KEY, id int NOT NULL, change_xid xid8 NOT NULL DEFAULT pg_current_xact_id())`,
  );
  return {
    start: () =>
      startConformanceHost({
        directory,
        pump: 'capture',
        data: {
          CapturePump: {
            PostgreSqlConnectionString: postgresUrl,
            PostgreSqlOutboxTable: outbox,
            PollIntervalMilliseconds: 3_600_000,
            FailureBackoffMilliseconds: 0,
          },
          ChangeStreamPump: { Enabled: false },
        },
        reporterId: 'pump-test',
        capture: {
          provider: 'postgresql',
          mode: 'polling',
          metadata: { sourceTable: table, changeColumn: 'change_id', requireCompleteness: true },
        },
      }),
    startKillable: () =>
      startKillableFixture(join(__dirname, '..'), 'pump-process.ts', {
        POSTGRES_URL: postgresUrl,
        SOURCE_TABLE: table,
        OUTBOX_TABLE: outbox,
        STORE_DIRECTORY: directory,
        TRANSACTION_COLUMN: 'change_xid',
      }),
    async insert(ids) {
      await admin.query(`INSERT INTO ${table} (id) SELECT unnest($1::int[])`, [ids]);
    },
    writeConcurrently: (options) =>
      writeSqlConcurrently(
        () => new pg.Client({ connectionString: postgresUrl }),
        `INSERT INTO ${table} (id) VALUES ($1)`,
        options,
      ),
    async stagedIds() {
      const exists = await admin.query('SELECT to_regclass($1) AS name', [outbox]);
      if (exists.rows[0].name === null) return [];
      const rows = await admin.query(`SELECT (payload->>'id')::int AS id FROM ${outbox}`);
      return rows.rows.map((row: { id: number }) => row.id);
    },
    async drop() {
      await admin.query(`DROP TABLE IF EXISTS ${table}, ${outbox}, ${outbox}_acknowledgements`);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

describeCdcProviderConformance({
  provider: 'postgresql (polling)',
  createSource,
  notApplicable: {
    'position-loss':
      'polling reads the table itself from its checkpoint: the server keeps no position for it that could be lost',
    'quiet-source-retention': 'polling holds nothing on the server (no slot, no retained WAL)',
  },
});
