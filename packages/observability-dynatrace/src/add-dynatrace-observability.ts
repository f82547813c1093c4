import {
  defineObservabilityPack,
  type ObservabilityPackFunction,
  otlpPlatformExporters,
} from '@corekit/observability-kit';
import {
  dynatraceObservabilityOptionsSchema,
  type DynatraceObservabilityOptions,
  type DynatraceObservabilityOptionsInput,
} from './dynatrace-observability-options';

/** The spec's event id of the Dynatrace pack (runtime-operations 6). */
export const dynatraceObservabilityEventId = 3154;

/**
 * Sends the host's traces, metrics and logs to a Dynatrace environment over OTLP/HTTP protobuf
 * (`Engine:Observability:Dynatrace`) with an `Api-Token`. Metrics are delta: Dynatrace refuses cumulative
 * sums and histograms. Needs `addOpenTelemetry(builder)` from `@corekit/observability`.
 */
export const addDynatraceObservability: ObservabilityPackFunction<
  DynatraceObservabilityOptions,
  DynatraceObservabilityOptionsInput
> = defineObservabilityPack({
  id: dynatraceObservabilityEventId,
  packageName: '@corekit/observability-dynatrace',
  platform: 'Dynatrace',
  entry: 'addDynatraceObservability',
  section: 'Engine:Observability:Dynatrace',
  schema: dynatraceObservabilityOptionsSchema,
  contribution: (settings) =>
    otlpPlatformExporters(settings, {
      headers: { Authorization: `Api-Token ${settings.ApiToken}` },
      metricTemporality: 'delta',
    }),
});
