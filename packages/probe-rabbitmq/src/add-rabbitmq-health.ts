import { defineProbe } from '@corekit/probe-kit';
import { rabbitMqHealthProbe } from './rabbitmq-health-probe';

/**
 * Registers one RabbitMQ dependency-health contributor per entry of
 * `Engine:Observability:DependencyHealth:RabbitMq`, with `options` merged over the configuration (code wins
 * per field; dependencies matched by Id). Fails with CONFIGURATION_INVALID naming the full key path when an
 * entry is invalid.
 */
export const addRabbitMqHealth = defineProbe(rabbitMqHealthProbe);
