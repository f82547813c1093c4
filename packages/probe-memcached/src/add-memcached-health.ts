import { defineProbe } from '@corekit/probe-kit';
import { memcachedHealthProbe } from './memcached-health-probe';

/**
 * Registers one memcached dependency-health contributor per entry of
 * `Engine:Observability:DependencyHealth:Memcached`, with `options` merged over the configuration (code wins
 * per field; dependencies matched by Id). Fails with CONFIGURATION_INVALID naming the full key path when an
 * entry is invalid.
 */
export const addMemcachedHealth = defineProbe(memcachedHealthProbe);
