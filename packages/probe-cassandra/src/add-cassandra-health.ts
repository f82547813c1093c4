import { defineProbe } from '@corekit/probe-kit';
import { cassandraHealthProbe } from './cassandra-health-probe';

/**
 * Registers one Cassandra dependency-health contributor per entry of `Engine:Observability:DependencyHealth:Cassandra`,
 * with `options` merged over the configuration (code wins per field; dependencies matched by Id). Fails
 * with CONFIGURATION_INVALID naming the full key path when an entry is invalid.
 */
export const addCassandraHealth = defineProbe(cassandraHealthProbe);
