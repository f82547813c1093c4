import path from 'node:path';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { startPostgresServer, type PostgresServerProcess } from '@corekit/testing/servers/postgres-server';
import { logicalLifecycleAdapter } from './test-support/logical-lifecycle-adapter';

// A PostgreSQL cluster of its own with `wal_level = logical` (see logical-decoding.integration.test.ts);
// one slot per test, each test on its own tables.
const password = 'logical-lifecycle-password';
let server: PostgresServerProcess;

beforeAll(async () => {
  server = await startPostgresServer({
    password,
    settings: ['wal_level = logical', 'max_replication_slots = 16', 'max_wal_senders = 16'],
  });
  // The SIGKILL check's child process reads it.
  process.env.LOGICAL_POSTGRES_URL = server.url.replace('postgres@', `postgres:${password}@`);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describePackLifecycleConformance(
  logicalLifecycleAdapter(() => process.env.LOGICAL_POSTGRES_URL!, path.resolve(__dirname, '..')),
);
