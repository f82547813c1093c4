import { defineProbe } from '@corekit/probe-kit';
import { oracleHealthProbe } from './oracle-health-probe';

/**
 * Registers one Oracle dependency-health contributor per entry of `Engine:Observability:DependencyHealth:Oracle`,
 * with `options` merged over the configuration (code wins per field; dependencies matched by Id). Fails with
 * CONFIGURATION_INVALID naming the full key path when an entry is invalid.
 */
export const addOracleHealth = defineProbe(oracleHealthProbe);
