import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { requireService } from '@corekit/testing/require-service';
import { startPostgresServer, type PostgresServerProcess } from '@corekit/testing/servers/postgres-server';
import { addPostgresHealth } from './add-postgres-health';
import type { PostgresHealthOptions } from './postgres-health-options';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const add = (builder: Parameters<typeof addPostgresHealth>[0], options: unknown) =>
  addPostgresHealth(builder, options as PostgresHealthOptions);

describe('against the PostgreSQL server on this machine', () => {
  describeProbeConformance({
    kind: 'PostgreSql',
    add,
    healthyUpstream: async () => {
      if (!(await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL'))) {
        throw new Error(
          `PostgreSQL is not reachable at ${new URL(postgresUrl).host}; start it or set POSTGRES_URL`,
        );
      }
      return { entry: { ConnectionString: postgresUrl }, close: async () => undefined };
    },
    refusedEntry: (port) => ({ Host: '127.0.0.1', Port: port, Username: 'postgres' }),
  });
});

describe('against a private PostgreSQL cluster with SCRAM authentication', () => {
  const password = 'conformance-Pg-pw-2Zt';
  let server: PostgresServerProcess | undefined;
  afterAll(() => server?.close());

  describeProbeConformance({
    kind: 'PostgreSql',
    add,
    healthyUpstream: async () => {
      server ??= await startPostgresServer({ password });
      return {
        entry: {
          Host: server.host,
          Port: server.port,
          Username: 'postgres',
          Password: password,
          Database: 'postgres',
        },
        secrets: [password],
        close: async () => undefined,
      };
    },
    refusedEntry: (port) => ({ Host: '127.0.0.1', Port: port, Username: 'postgres' }),
  });
});
