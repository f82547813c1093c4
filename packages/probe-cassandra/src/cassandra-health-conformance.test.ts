import { startCassandraFakeServer } from '@corekit/testing/fakes/cassandra/cassandra-fake-server';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addCassandraHealth } from './add-cassandra-health';

// With CASSANDRA_CONTACT_POINTS set (e.g. 127.0.0.1:9042; a node without authentication) the healthy
// upstream is that cluster; otherwise the fake node of @corekit/testing with PasswordAuthenticator on.
const realContactPoints = process.env.CASSANDRA_CONTACT_POINTS;
const fakePassword = 'cassandra-conformance-password-9';

describeProbeConformance({
  kind: 'Cassandra',
  add: addCassandraHealth,
  healthyUpstream: async () => {
    if (realContactPoints)
      return { entry: { ContactPoints: realContactPoints }, close: async () => undefined };
    const server = await startCassandraFakeServer({ users: { probe: fakePassword }, keyspaces: ['orders'] });
    return {
      entry: {
        ContactPoints: server.contactPoint,
        Keyspace: 'orders',
        Username: 'probe',
        Password: fakePassword,
      },
      secrets: [fakePassword],
      close: () => server.close(),
    };
  },
  refusedEntry: (port) => ({ ContactPoints: '127.0.0.1', Port: port }),
});
