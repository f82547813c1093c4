import { defineProbe } from '@corekit/probe-kit';
import { neo4jHealthProbe } from './neo4j-health-probe';

/**
 * Registers one Neo4j dependency-health contributor per entry of `Engine:Observability:DependencyHealth:Neo4j`,
 * with `options` merged over the configuration (code wins per field; dependencies matched by Id). Fails with
 * CONFIGURATION_INVALID naming the full key path when an entry is invalid.
 */
export const addNeo4jHealth = defineProbe(neo4jHealthProbe);
