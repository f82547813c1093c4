/** Diagnostic event ids of the observability core (spec range 3000-3006). */
export const observabilityEventIds = {
  /** info: the OpenTelemetry SDK started (service name, exporters, contributions; never a header value). */
  started: 3000,
  /** info: the SDK is off (`Enabled: false` or `OTEL_SDK_DISABLED=true`): instruments and spans stay no-ops. */
  disabled: 3001,
  /** warn: a core exporter (OTLP) failed to export a batch (signal, exporter, error message). */
  exportFailed: 3002,
  /** info: the SDK flushed and shut down within the stop budget; warn when it did not finish in time. */
  stopped: 3003,
  /** warn: the Prometheus route is guarded but the host has no authorizer, so every scrape is refused. */
  metricsRouteGuarded: 3004,
  /** warn: a resource detector or propagator failed; the SDK started without it. */
  componentFailed: 3005,
  /** error: the SDK could not start (the engine still runs, without telemetry). */
  startFailed: 3006,
} as const;

export const observabilityEventIdNames: Readonly<Record<number, string>> = {
  3000: 'opentelemetry-started',
  3001: 'opentelemetry-disabled',
  3002: 'export-failed',
  3003: 'opentelemetry-stopped',
  3004: 'metrics-route-guarded',
  3005: 'component-failed',
  3006: 'opentelemetry-start-failed',
};
