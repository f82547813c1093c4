import { defineProbe } from '@corekit/probe-kit';
import { consulHealthProbe } from './consul-health-probe';

/**
 * Registers one Consul dependency-health contributor per entry of `Engine:Observability:DependencyHealth:Consul`,
 * with `options` merged over the configuration (code wins per field; dependencies matched by Id). Fails
 * with CONFIGURATION_INVALID naming the full key path when an entry is invalid.
 */
export const addConsulHealth = defineProbe(consulHealthProbe);
