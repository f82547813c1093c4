import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { requireService } from '@corekit/testing/require-service';
import pg from 'pg';
import { retrievalLifecycleAdapter } from '../../retrieval/src/test-support/retrieval-lifecycle-adapter';
import { createPostgresIndexProvider } from './postgres-index-provider';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** One table per test (named after its folder), dropped at the end. */
const tables = new Set<string>();

beforeAll(async () => {
  await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
});
afterAll(async () => {
  const pool = new pg.Pool({ connectionString: postgresUrl });
  if (tables.size > 0) await pool.query(`DROP TABLE IF EXISTS ${[...tables].join(', ')}`);
  await pool.end();
});

describePackLifecycleConformance(
  retrievalLifecycleAdapter({
    name: 'retrieval (PostgreSQL index)',
    provider: {
      id: 'postgresql',
      create: (environment) => {
        const table = `knowledge_lifecycle_${environment.directory
          .replace(/[^a-z0-9]/gi, '')
          .slice(-12)
          .toLowerCase()}`;
        tables.add(table);
        return createPostgresIndexProvider({ connectionString: postgresUrl, table });
      },
    },
  }),
);
