/**
 * Diagnostic event ids of the OpenTelemetry SDK setup, in 3010-3019: the spec's observability-core range
 * (3000-3006) is taken by the engine's dependency-health and health-change records, so these sit outside every
 * range the spec assigns (as the engine's own 2030-2039 do) and no record borrows a spec id with another meaning.
 */
export const observabilityEventIds = {
  /** info: the OpenTelemetry SDK started (service name, exporters, contributions; never a header value). */
  started: 3010,
  /** info: the SDK is off (`Enabled: false` or `OTEL_SDK_DISABLED=true`): instruments and spans stay no-ops. */
  disabled: 3011,
  /** warn: a core exporter (OTLP) failed to export a batch (signal, exporter, error message). */
  exportFailed: 3012,
  /** info: the SDK flushed and shut down within the stop budget; warn when it did not finish in time. */
  stopped: 3013,
  /** error: the SDK could not start (the engine still runs, without telemetry). */
  startFailed: 3014,
} as const;

export const observabilityEventIdNames: Readonly<Record<number, string>> = {
  3010: 'opentelemetry-started',
  3011: 'opentelemetry-disabled',
  3012: 'export-failed',
  3013: 'opentelemetry-stopped',
  3014: 'opentelemetry-start-failed',
};
