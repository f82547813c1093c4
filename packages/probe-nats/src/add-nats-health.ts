import { defineProbe } from '@corekit/probe-kit';
import { natsHealthProbe } from './nats-health-probe';

/**
 * Registers one NATS dependency-health contributor per entry of `Engine:Observability:DependencyHealth:Nats`,
 * with `options` merged over the configuration (code wins per field; dependencies matched by Id). Fails
 * with CONFIGURATION_INVALID naming the full key path when an entry is invalid.
 */
export const addNatsHealth = defineProbe(natsHealthProbe);
