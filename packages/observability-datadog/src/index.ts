export {
  addDatadogObservability,
  datadogEndpoint,
  datadogObservabilityEventId,
} from './add-datadog-observability';
export { datadogObservabilityOptionsSchema } from './datadog-observability-options';
export type {
  DatadogObservabilityOptions,
  DatadogObservabilityOptionsInput,
} from './datadog-observability-options';
