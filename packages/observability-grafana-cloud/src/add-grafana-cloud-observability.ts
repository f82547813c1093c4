import {
  defineObservabilityPack,
  type ObservabilityPackFunction,
  otlpPlatformExporters,
} from '@corekit/observability-kit';
import {
  grafanaCloudObservabilityOptionsSchema,
  type GrafanaCloudObservabilityOptions,
  type GrafanaCloudObservabilityOptionsInput,
} from './grafana-cloud-observability-options';

/** The spec's event id of the Grafana Cloud pack (runtime-operations 6). */
export const grafanaCloudObservabilityEventId = 3117;

/** The OTLP gateway URL the settings resolve to. */
export function grafanaCloudEndpoint(settings: GrafanaCloudObservabilityOptions): string {
  return settings.Endpoint ?? `https://otlp-gateway-${settings.Zone}.grafana.net/otlp`;
}

/**
 * Sends the host's traces, metrics and logs to a Grafana Cloud stack's OTLP gateway
 * (`Engine:Observability:GrafanaCloud`) with basic auth (instance id, token). Metrics stay cumulative, as
 * Grafana's Prometheus-compatible store expects. Needs `addOpenTelemetry(builder)` from `@corekit/observability`.
 */
export const addGrafanaCloudObservability: ObservabilityPackFunction<
  GrafanaCloudObservabilityOptions,
  GrafanaCloudObservabilityOptionsInput
> = defineObservabilityPack({
  id: grafanaCloudObservabilityEventId,
  packageName: '@corekit/observability-grafana-cloud',
  platform: 'Grafana Cloud',
  entry: 'addGrafanaCloudObservability',
  section: 'Engine:Observability:GrafanaCloud',
  schema: grafanaCloudObservabilityOptionsSchema,
  check: (settings, path) =>
    settings.Zone || settings.Endpoint ? [] : [`${path}:Zone or ${path}:Endpoint is required`],
  secrets: (settings) => [basicCredentials(settings)],
  contribution: (settings) =>
    otlpPlatformExporters(
      { ...settings, Endpoint: grafanaCloudEndpoint(settings) },
      { headers: { Authorization: `Basic ${basicCredentials(settings)}` } },
    ),
});

function basicCredentials(settings: GrafanaCloudObservabilityOptions): string {
  return Buffer.from(`${settings.InstanceId}:${settings.Token}`).toString('base64');
}
