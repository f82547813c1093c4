export { addKafkaHealth } from './add-kafka-health';
export { kafkaHealthProbe } from './kafka-health-probe';
export {
  kafkaHealthEntryShape,
  kafkaHealthOptionsSchema,
  kafkaSecurityProtocols,
  kafkaSaslMechanisms,
  kafkaDefaultPort,
} from './kafka-health-options';
export type { KafkaHealthOptions, KafkaSecurityProtocol, KafkaSaslMechanism } from './kafka-health-options';
