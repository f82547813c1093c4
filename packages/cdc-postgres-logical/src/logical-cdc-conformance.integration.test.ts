import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeCdcProviderConformance,
  startKillableFixture,
  type CdcConformanceSource,
} from '@corekit/testing/cdc-provider-conformance';
import { writeSqlConcurrently } from '@corekit/testing/sql-concurrent-writers';
import pg from 'pg';
import { logicalCluster, logicalNames } from './test-support/logical-cluster';
import { dropSlot, startLogicalHost } from './test-support/logical-host';

// The CDC provider conformance suite of @corekit/testing on a PostgreSQL cluster of its own (wal_level =
// logical). Each source is its own table, outbox, slot, publication and File store folder; the kill check
// SIGKILLs a pump child process (tsx, src/test-fixtures/logical-pump-process.ts) mid-stream.
const cluster = logicalCluster({ password: 'logical-conformance-password', timeoutMs: 120_000 });

const packageDirectory = join(__dirname, '..');

async function createSource(test: string): Promise<CdcConformanceSource> {
  const names = logicalNames('conf', test);
  const directory = mkdtempSync(join(tmpdir(), `logical-conformance-${test}-`));
  const reporterId = `logical-conformance-${test}`;
  await cluster.admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY)`);
  await cluster.admin.query(`CREATE TABLE ${names.table}_elsewhere (body text)`);
  return {
    async start() {
      const host = await startLogicalHost({
        url: cluster.url,
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
    startKillable: () =>
      startKillableFixture(packageDirectory, 'logical-pump-process.ts', {
        POSTGRES_URL: cluster.url,
        SOURCE_TABLE: names.table,
        OUTBOX_TABLE: names.outbox,
        STORE_DIRECTORY: directory,
        SLOT: names.slot,
        PUBLICATION: names.publication,
        PUMP_REPORTER_ID: reporterId,
      }),
    async insert(ids) {
      await cluster.admin.query(`INSERT INTO ${names.table} SELECT unnest($1::int[])`, [ids]);
    },
    writeConcurrently: (options) =>
      writeSqlConcurrently(
        () => new pg.Client({ connectionString: cluster.url }),
        `INSERT INTO ${names.table} VALUES ($1)`,
        options,
      ),
    async stagedIds() {
      const exists = await cluster.admin.query('SELECT to_regclass($1) AS name', [names.outbox]);
      if (exists.rows[0].name === null) return [];
      const rows = await cluster.admin.query(
        `SELECT (payload->'new'->>'id')::int AS id FROM ${names.outbox} ORDER BY id`,
      );
      return rows.rows.map((row: { id: number }) => row.id);
    },
    losePosition: () => dropSlot(cluster.admin, names.slot),
    async writeElsewhere(bytes) {
      const rows = Math.ceil(bytes / 1024);
      await cluster.admin.query(
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
