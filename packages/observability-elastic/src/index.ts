export { addElasticObservability, elasticObservabilityEventId } from './add-elastic-observability';
export { elasticObservabilityOptionsSchema } from './elastic-observability-options';
export type {
  ElasticObservabilityOptions,
  ElasticObservabilityOptionsInput,
} from './elastic-observability-options';
