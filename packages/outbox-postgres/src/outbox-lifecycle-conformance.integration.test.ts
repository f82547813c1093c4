import path from 'node:path';
import pg from 'pg';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { requireService } from '@corekit/testing/require-service';
import { outboxLifecycleAdapter } from './test-support/outbox-lifecycle-adapter';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const table = `outbox_lifecycle_${process.pid}`;
// The SIGKILL check's child process reads them.
process.env.POSTGRES_URL = postgresUrl;
process.env.OUTBOX_TABLE = table;

beforeAll(async () => {
  await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
});

afterAll(async () => {
  const pool = new pg.Pool({ connectionString: postgresUrl });
  await pool.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  await pool.end();
});

describePackLifecycleConformance(outboxLifecycleAdapter(postgresUrl, table, path.resolve(__dirname, '..')));
