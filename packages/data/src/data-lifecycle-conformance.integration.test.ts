import path from 'node:path';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { requireService } from '@corekit/testing/require-service';
import { dataLifecycleAdapter, dropLifecycleTables } from './test-support/data-lifecycle-adapter';
import { postgresUrl } from './test-support/postgres-source';

// The SIGKILL check's child process reads it.
process.env.POSTGRES_URL = postgresUrl;

beforeAll(async () => {
  await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
});
afterAll(() => dropLifecycleTables(postgresUrl));

describePackLifecycleConformance(dataLifecycleAdapter(postgresUrl, path.resolve(__dirname, '..')));
