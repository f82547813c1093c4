export { addHoneycombObservability, honeycombObservabilityEventId } from './add-honeycomb-observability';
export { honeycombEndpoints, honeycombObservabilityOptionsSchema } from './honeycomb-observability-options';
export type {
  HoneycombObservabilityOptions,
  HoneycombObservabilityOptionsInput,
} from './honeycomb-observability-options';
