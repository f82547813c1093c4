export { addDynatraceObservability, dynatraceObservabilityEventId } from './add-dynatrace-observability';
export { dynatraceObservabilityOptionsSchema } from './dynatrace-observability-options';
export type {
  DynatraceObservabilityOptions,
  DynatraceObservabilityOptionsInput,
} from './dynatrace-observability-options';
