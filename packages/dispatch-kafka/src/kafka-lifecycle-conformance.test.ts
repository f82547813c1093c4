import { createMemoryLogger } from '@corekit/engine-core';
import { startKafkaFakeServer, type KafkaFakeServer } from '@corekit/testing/fakes/kafka/kafka-fake-server';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { dispatcherLifecycleAdapter } from '../../dispatch-kit/src/test-support/dispatcher-lifecycle-adapter';
import { KafkaDispatcher } from './kafka-dispatcher';
import { kafkaDispatcherOptionsSchema } from './kafka-dispatcher-options';

// The Kafka wire fake of @corekit/testing (Produce with acceptProduce), one per run with the topic `lifecycle`
// (the producer never creates topics). The message key is the publication id; the suite's work ids are unique
// across its tests, so the tests share the topic.
let server: KafkaFakeServer;

beforeAll(async () => {
  server = await startKafkaFakeServer({ topics: ['lifecycle'], acceptProduce: true });
});

afterAll(async () => {
  await server?.close();
});

describePackLifecycleConformance(
  dispatcherLifecycleAdapter({
    name: 'Kafka',
    create: () =>
      new KafkaDispatcher(
        kafkaDispatcherOptionsSchema.parse({
          Brokers: [`${server.host}:${server.port}`],
          Topic: 'lifecycle',
        }),
        createMemoryLogger(),
      ),
    // Kafka keeps what is produced to a topic: nothing to subscribe first.
    prepare: async () => undefined,
    received: async () => server.produced.map((record) => String(record.key)),
  }),
);
