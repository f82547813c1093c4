import {
  defineObservabilityPack,
  type ObservabilityPackFunction,
  otlpPlatformExporters,
} from '@corekit/observability-kit';
import {
  datadogObservabilityOptionsSchema,
  type DatadogObservabilityOptions,
  type DatadogObservabilityOptionsInput,
} from './datadog-observability-options';

/** The spec's event id of the Datadog pack (runtime-operations 6). */
export const datadogObservabilityEventId = 3114;

/** The OTLP base URL the settings resolve to. */
export function datadogEndpoint(settings: DatadogObservabilityOptions): string {
  if (settings.Endpoint) return settings.Endpoint;
  return settings.Mode === 'Agent' ? 'http://localhost:4318' : `https://otlp.${settings.Site}`;
}

/**
 * Sends the host's traces, metrics and logs to Datadog over OTLP/HTTP protobuf
 * (`Engine:Observability:Datadog`), through the local Agent or agentless with `dd-api-key`. Metrics are
 * delta, as Datadog's OTLP ingestion expects. Needs `addOpenTelemetry(builder)` from `@corekit/observability`.
 */
export const addDatadogObservability: ObservabilityPackFunction<
  DatadogObservabilityOptions,
  DatadogObservabilityOptionsInput
> = defineObservabilityPack({
  id: datadogObservabilityEventId,
  packageName: '@corekit/observability-datadog',
  platform: 'Datadog',
  entry: 'addDatadogObservability',
  section: 'Engine:Observability:Datadog',
  schema: datadogObservabilityOptionsSchema,
  check: (settings, path) =>
    settings.Mode === 'Agentless' && !settings.ApiKey
      ? [`${path}:ApiKey is required when ${path}:Mode is Agentless`]
      : [],
  contribution: (settings) => ({
    ...otlpPlatformExporters(
      { ...settings, Endpoint: datadogEndpoint(settings) },
      {
        headers: settings.ApiKey ? { 'dd-protocol': 'otlp', 'dd-api-key': settings.ApiKey } : {},
        metricTemporality: 'delta',
      },
    ),
  }),
});
