import { defineProbe } from '@corekit/probe-kit';
import { httpHealthProbe } from './http-health-probe';

/**
 * Registers one HTTP dependency-health contributor per entry of `Engine:Observability:DependencyHealth:Http`,
 * with `options` merged over the configuration (code wins per field; dependencies matched by Id). Fails
 * with CONFIGURATION_INVALID naming the full key path when an entry is invalid.
 */
export const addHttpHealth = defineProbe(httpHealthProbe);
