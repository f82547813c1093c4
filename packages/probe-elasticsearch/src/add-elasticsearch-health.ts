import { defineProbe } from '@corekit/probe-kit';
import { elasticsearchHealthProbe } from './elasticsearch-health-probe';

/**
 * Registers one Elasticsearch dependency-health contributor per entry of
 * `Engine:Observability:DependencyHealth:Elasticsearch`, with `options` merged over the configuration
 * (code wins per field; dependencies matched by Id). Fails with CONFIGURATION_INVALID naming the full key
 * path when an entry is invalid.
 */
export const addElasticsearchHealth = defineProbe(elasticsearchHealthProbe);
