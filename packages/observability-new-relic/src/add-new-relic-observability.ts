import {
  defineObservabilityPack,
  type ObservabilityPackFunction,
  otlpPlatformExporters,
} from '@corekit/observability-kit';
import {
  newRelicEndpoints,
  newRelicObservabilityOptionsSchema,
  type NewRelicObservabilityOptions,
  type NewRelicObservabilityOptionsInput,
} from './new-relic-observability-options';

/** The spec's event id of the New Relic pack (runtime-operations 6). */
export const newRelicObservabilityEventId = 3115;

/**
 * Sends the host's traces, metrics and logs to New Relic over OTLP/HTTP (`Engine:Observability:NewRelic`)
 * with the license key as `api-key`. Metrics are delta, the temporality New Relic recommends. Needs
 * `addOpenTelemetry(builder)` from `@corekit/observability`.
 */
export const addNewRelicObservability: ObservabilityPackFunction<
  NewRelicObservabilityOptions,
  NewRelicObservabilityOptionsInput
> = defineObservabilityPack({
  id: newRelicObservabilityEventId,
  packageName: '@corekit/observability-new-relic',
  platform: 'New Relic',
  entry: 'addNewRelicObservability',
  section: 'Engine:Observability:NewRelic',
  schema: newRelicObservabilityOptionsSchema,
  contribution: (settings) =>
    otlpPlatformExporters(
      { ...settings, Endpoint: settings.Endpoint ?? newRelicEndpoints[settings.Region] },
      { headers: { 'api-key': settings.LicenseKey }, metricTemporality: 'delta' },
    ),
});
