import type { ObservabilityContribution } from '@corekit/observability';
import { OTLPLogExporter as OtlpJsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as OtlpProtobufLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import {
  AggregationTemporalityPreference,
  OTLPMetricExporter as OtlpJsonMetricExporter,
} from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as OtlpProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { OtlpPackSettings } from './observability-pack-options';

/** Which aggregation temporality a platform ingests: `delta` (Dynatrace, Datadog, New Relic) or `cumulative`. */
export type MetricTemporality = 'delta' | 'cumulative';

/** What a platform adds to the shared OTLP exporters: its credential headers and its metric temporality. */
export interface OtlpPlatformWiring {
  /** Headers on every signal (the credential header: `api-key`, `x-honeycomb-team`, `Authorization`...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Headers on one signal only (Honeycomb's `x-honeycomb-dataset` for metrics). */
  readonly signalHeaders?: {
    readonly traces?: Readonly<Record<string, string>>;
    readonly metrics?: Readonly<Record<string, string>>;
    readonly logs?: Readonly<Record<string, string>>;
  };
  /**
   * Headers computed before every export request, over the static ones (a short-lived OAuth access token
   * from the platform's auth library).
   */
  readonly dynamicHeaders?: () => Promise<Readonly<Record<string, string>>>;
  /** Default `cumulative` (the SDK's own default). */
  readonly metricTemporality?: MetricTemporality;
}

/** The OTLP/HTTP URL of one signal below a base endpoint (`https://host/otlp` → `https://host/otlp/v1/traces`). */
export function otlpSignalUrl(endpoint: string, signal: 'traces' | 'metrics' | 'logs'): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/${signal}`;
}

/**
 * The OTLP/HTTP exporters of a platform pack, as contribution factories (the exporters are created when the
 * SDK starts): one per enabled signal, in the section's encoding, with the section's extra headers under the
 * platform's own, and the platform's metric temporality.
 */
export function otlpPlatformExporters(
  settings: OtlpPackSettings,
  wiring: OtlpPlatformWiring = {},
): Pick<ObservabilityContribution, 'spanExporters' | 'metricExporters' | 'logRecordExporters'> {
  const json = settings.Protocol === 'http/json';
  const common = (signal: 'traces' | 'metrics' | 'logs') => {
    const headers = { ...settings.Headers, ...wiring.headers, ...wiring.signalHeaders?.[signal] };
    const dynamic = wiring.dynamicHeaders;
    return {
      url: otlpSignalUrl(settings.Endpoint, signal),
      headers: dynamic ? async () => ({ ...headers, ...(await dynamic()) }) : headers,
      timeoutMillis: settings.TimeoutMilliseconds,
    };
  };
  const temporalityPreference =
    wiring.metricTemporality === 'delta'
      ? AggregationTemporalityPreference.DELTA
      : AggregationTemporalityPreference.CUMULATIVE;
  return {
    ...(settings.Signals.Traces
      ? {
          spanExporters: () => [
            json
              ? new OtlpJsonTraceExporter(common('traces'))
              : new OtlpProtobufTraceExporter(common('traces')),
          ],
        }
      : {}),
    ...(settings.Signals.Metrics
      ? {
          metricExporters: () => [
            json
              ? new OtlpJsonMetricExporter({ ...common('metrics'), temporalityPreference })
              : new OtlpProtobufMetricExporter({ ...common('metrics'), temporalityPreference }),
          ],
        }
      : {}),
    ...(settings.Signals.Logs
      ? {
          logRecordExporters: () => [
            json ? new OtlpJsonLogExporter(common('logs')) : new OtlpProtobufLogExporter(common('logs')),
          ],
        }
      : {}),
  };
}
