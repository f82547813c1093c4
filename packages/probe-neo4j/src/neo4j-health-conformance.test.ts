import { startNeo4jFakeServer } from '@corekit/testing/fakes/neo4j/neo4j-fake-server';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addNeo4jHealth } from './add-neo4j-health';
import { realNeo4j } from './real-neo4j';

// With NEO4J_URI set (see real-neo4j.ts), the healthy upstream is that server instead of the fake.
const fakePassword = 'neo4j-conformance-password-7';

describeProbeConformance({
  kind: 'Neo4j',
  add: addNeo4jHealth,
  healthyUpstream: async () => {
    const real = realNeo4j();
    if (real) {
      return {
        entry: {
          Uri: real.uri,
          ...(real.password ? { Username: real.username, Password: real.password } : {}),
        },
        secrets: real.password ? [real.password] : [],
        close: async () => undefined,
      };
    }
    const server = await startNeo4jFakeServer({ credentials: { username: 'neo4j', password: fakePassword } });
    return {
      entry: { Uri: server.uri, Username: 'neo4j', Password: fakePassword },
      secrets: [fakePassword],
      close: () => server.close(),
    };
  },
  refusedEntry: (port) => ({ Uri: `bolt://127.0.0.1:${port}` }),
  blackHoleEntry: (port) => ({ Uri: `neo4j://127.0.0.1:${port}` }),
});
