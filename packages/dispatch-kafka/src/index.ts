export { addKafkaDispatcher } from './add-kafka-dispatcher';
export { KafkaDispatcher } from './kafka-dispatcher';
export type { KafkaEventEnvelope } from './kafka-dispatcher';
export { kafkaDispatcherOptionsSchema } from './kafka-dispatcher-options';
export type { KafkaDispatcherOptions, KafkaDispatcherOptionsInput } from './kafka-dispatcher-options';
