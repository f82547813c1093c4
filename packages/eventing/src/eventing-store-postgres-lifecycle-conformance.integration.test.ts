import path from 'node:path';
import pg from 'pg';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { requireService } from '@corekit/testing/require-service';
import { eventingLifecycleAdapter } from './test-support/eventing-lifecycle-adapter';
import { postgresStores } from './test-support/store-providers';

// The keyed outbox of eventing on the PostgreSQL store provider (@corekit/store-postgres): one table per test.
const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const tables = new Set<string>();
// The SIGKILL check's child process reads them.
process.env.POSTGRES_URL = postgresUrl;
process.env.EVENTING_LIFECYCLE_STORES = 'postgresql';

beforeAll(async () => {
  await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
});

afterAll(async () => {
  if (tables.size === 0) return;
  const pool = new pg.Pool({ connectionString: postgresUrl });
  await pool.query(`DROP TABLE IF EXISTS ${[...tables].join(', ')}`).catch(() => undefined);
  await pool.end();
});

describePackLifecycleConformance(
  eventingLifecycleAdapter('outbox', path.resolve(__dirname, '..'), postgresStores(postgresUrl, tables)),
);
