import path from 'node:path';
import { describePackLifecycleConformance, requireService } from '@corekit/testing';
import { dataLifecycleAdapter, dropLifecycleTables } from './test-support/data-lifecycle-adapter';
import { postgresUrl } from './test-support/postgres-source';

// The SIGKILL check's child process reads it.
process.env.POSTGRES_URL = postgresUrl;

beforeAll(async () => {
  await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
});
afterAll(() => dropLifecycleTables(postgresUrl));

describePackLifecycleConformance(dataLifecycleAdapter(postgresUrl, path.resolve(__dirname, '..')));
