import { startKafkaFakeServer } from '@corekit/testing/fakes/kafka/kafka-fake-server';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addKafkaHealth } from './add-kafka-health';

// With KAFKA_BOOTSTRAP_SERVERS set (a PLAINTEXT listener, e.g. 127.0.0.1:9092) the healthy upstream is that
// cluster; otherwise the fake broker of @corekit/testing with a SASL PLAIN listener.
const realServers = process.env.KAFKA_BOOTSTRAP_SERVERS;
const fakePassword = 'kafka-conformance-password-3';

describeProbeConformance({
  kind: 'Kafka',
  add: addKafkaHealth,
  healthyUpstream: async () => {
    if (realServers) return { entry: { BootstrapServers: realServers }, close: async () => undefined };
    const server = await startKafkaFakeServer({
      topics: ['orders'],
      sasl: { users: { probe: fakePassword } },
    });
    return {
      entry: {
        BootstrapServers: server.bootstrapServers,
        Topic: 'orders',
        SecurityProtocol: 'SASL_PLAINTEXT',
        SaslMechanism: 'PLAIN',
        Username: 'probe',
        Password: fakePassword,
      },
      secrets: [fakePassword],
      close: () => server.close(),
    };
  },
  refusedEntry: (port) => ({ BootstrapServers: `127.0.0.1:${port}` }),
});
