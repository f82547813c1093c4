export { startFakeKafka } from './fake-kafka-broker';
export type { FakeKafka, FakeKafkaOptions, KafkaRequestRecord } from './fake-kafka-broker';
