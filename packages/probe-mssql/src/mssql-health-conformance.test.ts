import { startMssqlFakeServer } from '@corekit/testing/fakes/mssql/mssql-fake-server';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addMssqlHealth } from './add-mssql-health';
import { realSqlServer } from './real-sql-server';

// With MSSQL_CONNECTION_STRING set (see real-sql-server.ts), the healthy upstream is that server instead of the fake.
const fakePassword = 'mssql-conformance-password-5';

describeProbeConformance({
  kind: 'SqlServer',
  add: addMssqlHealth,
  healthyUpstream: async () => {
    const real = realSqlServer();
    if (real) {
      return {
        entry: { ConnectionString: real.connectionString },
        secrets: real.password ? [real.password] : [],
        close: async () => undefined,
      };
    }
    const server = await startMssqlFakeServer({
      credentials: { userName: 'health', password: fakePassword },
    });
    return {
      entry: {
        ConnectionString: `Server=${server.host},${server.port};User Id=health;Password=${fakePassword};Encrypt=false`,
      },
      secrets: [fakePassword],
      close: () => server.close(),
    };
  },
  refusedEntry: (port) => ({
    ConnectionString: `Server=127.0.0.1,${port};User Id=health;Password=${fakePassword};Encrypt=false`,
  }),
});
