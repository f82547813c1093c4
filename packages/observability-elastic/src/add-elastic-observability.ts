import {
  defineObservabilityPack,
  type ObservabilityPackFunction,
  otlpPlatformExporters,
} from '@corekit/observability-kit';
import {
  elasticObservabilityOptionsSchema,
  type ElasticObservabilityOptions,
  type ElasticObservabilityOptionsInput,
} from './elastic-observability-options';

/** The spec's event id of the Elastic pack (runtime-operations 6). */
export const elasticObservabilityEventId = 3119;

/** The Authorization header of the settings: `ApiKey <key>`, `Bearer <token>`, or none. */
function authorization(settings: ElasticObservabilityOptions): Record<string, string> {
  if (settings.ApiKey) return { Authorization: `ApiKey ${settings.ApiKey}` };
  if (settings.SecretToken) return { Authorization: `Bearer ${settings.SecretToken}` };
  return {};
}

/**
 * Sends the host's traces, metrics and logs to Elastic Observability over OTLP/HTTP
 * (`Engine:Observability:Elastic`) with an API key or an APM secret token. Metrics are delta, the preference
 * of Elastic's own OpenTelemetry distributions. Needs `addOpenTelemetry(builder)` from `@corekit/observability`.
 */
export const addElasticObservability: ObservabilityPackFunction<
  ElasticObservabilityOptions,
  ElasticObservabilityOptionsInput
> = defineObservabilityPack({
  id: elasticObservabilityEventId,
  packageName: '@corekit/observability-elastic',
  platform: 'Elastic',
  entry: 'addElasticObservability',
  section: 'Engine:Observability:Elastic',
  schema: elasticObservabilityOptionsSchema,
  check: (settings, path) =>
    settings.ApiKey && settings.SecretToken
      ? [`${path}:ApiKey and ${path}:SecretToken are both set; keep one`]
      : [],
  contribution: (settings) =>
    otlpPlatformExporters(settings, { headers: authorization(settings), metricTemporality: 'delta' }),
});
