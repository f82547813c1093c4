export { startKafkaFakeServer } from './kafka-fake-server';
export type { KafkaFakeServer, KafkaFakeServerOptions, KafkaRequestRecord } from './kafka-fake-server';
export type { KafkaProducedRecord } from './kafka-produce';
