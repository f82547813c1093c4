export { addNewRelicObservability, newRelicObservabilityEventId } from './add-new-relic-observability';
export { newRelicEndpoints, newRelicObservabilityOptionsSchema } from './new-relic-observability-options';
export type {
  NewRelicObservabilityOptions,
  NewRelicObservabilityOptionsInput,
} from './new-relic-observability-options';
