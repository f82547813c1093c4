import { defineProbe } from '@corekit/probe-kit';
import { kafkaHealthProbe } from './kafka-health-probe';

/**
 * Registers one Kafka dependency-health contributor per entry of `Engine:Observability:DependencyHealth:Kafka`,
 * with `options` merged over the configuration (code wins per field; dependencies matched by Id). Fails
 * with CONFIGURATION_INVALID naming the full key path when an entry is invalid.
 */
export const addKafkaHealth = defineProbe(kafkaHealthProbe);
