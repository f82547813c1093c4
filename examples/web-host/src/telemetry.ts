import type { WebHost } from '@corekit/web-host';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK, resources } from '@opentelemetry/sdk-node';

/** The running OpenTelemetry SDK of the sample and the Prometheus reader `/metrics` serves. */
export interface SampleTelemetry {
  readonly prometheus: PrometheusExporter;
  /** True when `OTEL_EXPORTER_OTLP_ENDPOINT` was set: metrics and spans are also pushed over OTLP/HTTP. */
  readonly otlp: boolean;
  /** Flushes and stops every exporter. */
  shutdown(): Promise<void>;
}

/**
 * Starts `@opentelemetry/sdk-node` for the sample. Call it before the engine is built: the engine takes its
 * meter when it is built, and a meter taken before the SDK is registered stays a no-op.
 *
 * - Metrics are always readable through the Prometheus exporter (no server of its own: `mountMetrics` serves
 *   it at `/metrics` on the host's port).
 * - With `OTEL_EXPORTER_OTLP_ENDPOINT` set (for instance `http://localhost:4318`), metrics (every 60 s, or
 *   `OTEL_METRIC_EXPORT_INTERVAL`) and spans are also exported over OTLP/HTTP; the exporters read the other
 *   standard `OTEL_EXPORTER_OTLP_*` variables themselves. Without it nothing is pushed anywhere.
 * - `OTEL_SERVICE_NAME` names the service (default `corekit-sample-host`); `OTEL_SDK_DISABLED=true` turns it
 *   all off (then `/metrics` answers an empty document).
 *
 * One SDK per process: the OpenTelemetry API keeps the first meter provider registered.
 */
export function startTelemetry(
  environment: Readonly<Record<string, string | undefined>> = process.env,
): SampleTelemetry {
  const otlp = Boolean(environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const metricReaders: IMetricReader[] = [prometheus];
  if (otlp) metricReaders.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() }));
  const sdk = new NodeSDK({
    serviceName: environment.OTEL_SERVICE_NAME ? undefined : 'corekit-sample-host',
    metricReaders,
    // Spans only when there is somewhere to send them; the SDK's own default would push to localhost:4318.
    ...(otlp ? { traceExporter: new OTLPTraceExporter() } : { spanProcessors: [] }),
    // The engine writes its logs as JSON lines; none go through OpenTelemetry.
    logRecordProcessors: [],
    // Only OTEL_RESOURCE_ATTRIBUTES by default: the SDK's own default also reports the host name, the process
    // id, the full command line and the process owner to whoever reads /metrics. OTEL_NODE_RESOURCE_DETECTORS
    // (host, os, process, ..., all) asks for them.
    ...(environment.OTEL_NODE_RESOURCE_DETECTORS?.trim()
      ? {}
      : { resourceDetectors: [resources.envDetector] }),
  });
  sdk.start();
  return { prometheus, otlp, shutdown: () => sdk.shutdown() };
}

/**
 * Serves the Prometheus text format at `GET /metrics` on the host's own port, through the exporter's request
 * handler. With `requireAuthorization` (the sample's `Engine:Sample:Metrics:Exposure`, guarded under
 * NODE_ENV=production by default) the host's authorize hook must admit the scraper (403 otherwise).
 */
export function mountMetrics(
  host: WebHost,
  telemetry: SampleTelemetry,
  options: { readonly requireAuthorization?: boolean } = {},
): void {
  host.addRoute({
    requireAuthorization: options.requireAuthorization,
    method: 'get',
    path: '/metrics',
    summary: 'OpenTelemetry metrics in the Prometheus text format (engine counters, check durations)',
    tags: ['Observability'],
    rel: 'metrics',
    servedWhileDraining: true,
    responses: {
      200: { description: 'Prometheus text exposition format', contentType: 'text/plain; version=0.0.4' },
    },
    handler: (request, response) => telemetry.prometheus.getMetricsRequestHandler(request, response),
  });
}
