import { startMongoDbFakeServer } from '@corekit/testing/fakes/mongodb/mongodb-fake-server';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addMongoDbHealth } from './add-mongodb-health';

// With MONGODB_URL set (a connection string; put credentials in it if the server needs them) the healthy
// upstream is that server; otherwise the fake server of @corekit/testing with SCRAM-SHA-256 on.
const realUrl = process.env.MONGODB_URL;
const fakePassword = 'mongo-conformance-password-5';

function passwordOf(url: string): string[] {
  const match = /^mongodb(?:\+srv)?:\/\/[^:/@]*:([^@/]*)@/i.exec(url);
  return match ? [decodeURIComponent(match[1])] : [];
}

describeProbeConformance({
  kind: 'MongoDb',
  add: addMongoDbHealth,
  healthyUpstream: async () => {
    if (realUrl)
      return {
        entry: { ConnectionString: realUrl },
        secrets: passwordOf(realUrl),
        close: async () => undefined,
      };
    const server = await startMongoDbFakeServer({ users: { probe: fakePassword } });
    return {
      entry: {
        Host: server.host,
        Port: server.port,
        Database: 'orders',
        Username: 'probe',
        Password: fakePassword,
        DirectConnection: true,
      },
      secrets: [fakePassword],
      close: () => server.close(),
    };
  },
  refusedEntry: (port) => ({ Host: '127.0.0.1', Port: port, DirectConnection: true }),
});
