import { startOracleFakeServer } from '@corekit/testing/fakes/oracle/oracle-fake-server';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addOracleHealth } from './add-oracle-health';
import { realOracle } from './real-oracle';

// With ORACLE_CONNECTION_STRING set (see real-oracle.ts), the healthy upstream is that database instead of the fake.
const fakePassword = 'oracle-conformance-password-3';

describeProbeConformance({
  kind: 'Oracle',
  add: addOracleHealth,
  healthyUpstream: async () => {
    const real = realOracle();
    if (real) {
      return {
        entry: { ConnectionString: real.connectString, Username: real.username, Password: real.password },
        secrets: [real.password],
        close: async () => undefined,
      };
    }
    const server = await startOracleFakeServer({
      credentials: { username: 'health', password: fakePassword },
    });
    return {
      entry: { ConnectionString: server.connectString, Username: 'health', Password: fakePassword },
      secrets: [fakePassword],
      close: () => server.close(),
    };
  },
  refusedEntry: (port) => ({
    ConnectionString: `127.0.0.1:${port}/FREEPDB1`,
    Username: 'health',
    Password: fakePassword,
  }),
});
