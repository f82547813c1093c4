export { addOpenTelemetry } from './add-open-telemetry';
export { addObservabilityContribution } from './add-observability-contribution';
export type {
  ObservabilityContribution,
  ObservabilityResourceAttributes,
} from './observability-contribution';
export { observabilityEventIds, observabilityEventIdNames } from './observability-event-ids';
export {
  openTelemetryOptionsSchema,
  openTelemetrySectionPath,
  otlpProtocols,
  prometheusExposures,
  type OpenTelemetryOptions,
  type OpenTelemetryOptionsInput,
  type OtlpProtocol,
} from './open-telemetry-options';
export { prometheusContentType } from './prometheus-route';
export type { TelemetryDescription } from './telemetry-sdk';
