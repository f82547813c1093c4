import { defineProbe } from '@corekit/probe-kit';
import { redisHealthProbe } from './redis-health-probe';

/**
 * Registers one Redis dependency-health contributor per entry of `Engine:Observability:DependencyHealth:Redis`,
 * with `options` merged over the configuration (code wins per field; dependencies matched by Id). Fails with
 * CONFIGURATION_INVALID naming the full key path when an entry is invalid, or when Password still holds a
 * placeholder such as `<SECRET>`.
 */
export const addRedisHealth = defineProbe(redisHealthProbe);
