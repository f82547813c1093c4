export { addOpenSearchHealth } from './add-opensearch-health';
export { openSearchHealthProbe } from './opensearch-health-probe';
export { openSearchHealthEntryShape, openSearchHealthOptionsSchema } from './opensearch-health-options';
export type { OpenSearchHealthOptions } from './opensearch-health-options';
