import {
  defineObservabilityPack,
  type ObservabilityPackFunction,
  otlpPlatformExporters,
} from '@corekit/observability-kit';
import {
  honeycombEndpoints,
  honeycombObservabilityOptionsSchema,
  type HoneycombObservabilityOptions,
  type HoneycombObservabilityOptionsInput,
} from './honeycomb-observability-options';

/** The spec's event id of the Honeycomb pack (runtime-operations 6). */
export const honeycombObservabilityEventId = 3116;

/**
 * Sends the host's traces, metrics and logs to Honeycomb over OTLP/HTTP (`Engine:Observability:Honeycomb`)
 * with `x-honeycomb-team`, and `x-honeycomb-dataset` on metrics. Needs `addOpenTelemetry(builder)` from
 * `@corekit/observability`.
 */
export const addHoneycombObservability: ObservabilityPackFunction<
  HoneycombObservabilityOptions,
  HoneycombObservabilityOptionsInput
> = defineObservabilityPack({
  id: honeycombObservabilityEventId,
  packageName: '@corekit/observability-honeycomb',
  platform: 'Honeycomb',
  entry: 'addHoneycombObservability',
  section: 'Engine:Observability:Honeycomb',
  schema: honeycombObservabilityOptionsSchema,
  contribution: (settings) =>
    otlpPlatformExporters(
      { ...settings, Endpoint: settings.Endpoint ?? honeycombEndpoints[settings.Region] },
      {
        headers: { 'x-honeycomb-team': settings.ApiKey },
        signalHeaders: { metrics: { 'x-honeycomb-dataset': settings.MetricsDataset } },
      },
    ),
});
