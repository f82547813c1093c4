import { defineProbe } from '@corekit/probe-kit';
import { openSearchHealthProbe } from './opensearch-health-probe';

/**
 * Registers one OpenSearch dependency-health contributor per entry of
 * `Engine:Observability:DependencyHealth:OpenSearch`, with `options` merged over the configuration (code
 * wins per field; dependencies matched by Id). Fails with CONFIGURATION_INVALID naming the full key path
 * when an entry is invalid.
 */
export const addOpenSearchHealth = defineProbe(openSearchHealthProbe);
