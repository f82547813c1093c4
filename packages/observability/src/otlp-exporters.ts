import { Metadata } from '@grpc/grpc-js';
import { OTLPLogExporter as GrpcLogExporter } from '@opentelemetry/exporter-logs-otlp-grpc';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtobufLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { LogRecordExporter } from '@opentelemetry/sdk-logs';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { OpenTelemetryOptions, OtlpProtocol } from './open-telemetry-options';
import type { OtelEnvironment, TelemetrySignal } from './otel-environment';

/** Where and how one signal is pushed over OTLP. */
export interface OtlpTarget {
  readonly signal: TelemetrySignal;
  /** The full URL (`http://collector:4318/v1/traces`; the base URL for gRPC). */
  readonly url: string;
  readonly protocol: OtlpProtocol;
  /** Header values are secrets: never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMillis: number | undefined;
}

const signals: readonly TelemetrySignal[] = ['traces', 'metrics', 'logs'];
const signalOption = { traces: 'Traces', metrics: 'Metrics', logs: 'Logs' } as const;

/**
 * The OTLP targets in effect: for each signal switched on (the section's `Traces`/`Metrics`/`Logs`, and
 * `OTEL_<SIGNAL>_EXPORTER` not `none`), the section's `Endpoint`, else `OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT`
 * as is, else `OTEL_EXPORTER_OTLP_ENDPOINT`; no endpoint anywhere means the signal is not pushed.
 */
export function otlpTargets(
  options: OpenTelemetryOptions['Otlp'],
  environment: OtelEnvironment,
): OtlpTarget[] {
  const targets: OtlpTarget[] = [];
  for (const signal of signals) {
    if (!options[signalOption[signal]] || environment.exporterOff(signal)) continue;
    const protocol = options.Protocol ?? environment.protocol(signal) ?? 'http/protobuf';
    const base = options.Endpoint ?? (environment.signalEndpoint(signal) ? undefined : environment.endpoint);
    const url = base ? signalUrl(base, protocol, signal) : environment.signalEndpoint(signal);
    if (!url) continue;
    targets.push({
      signal,
      url,
      protocol,
      headers: { ...environment.headers(signal), ...options.Headers },
      timeoutMillis: options.TimeoutMilliseconds ?? environment.timeout(signal),
    });
  }
  return targets;
}

/** `http://collector:4318` → `http://collector:4318/v1/traces` for HTTP; gRPC takes the base URL. */
function signalUrl(base: string, protocol: OtlpProtocol, signal: TelemetrySignal): string {
  return protocol === 'grpc' ? base : `${base.replace(/\/+$/, '')}/v1/${signal}`;
}

function grpcMetadata(headers: Readonly<Record<string, string>>): Metadata {
  const metadata = new Metadata();
  for (const [name, value] of Object.entries(headers)) metadata.set(name.toLowerCase(), value);
  return metadata;
}

export function otlpSpanExporter(target: OtlpTarget): SpanExporter {
  const common = { url: target.url, timeoutMillis: target.timeoutMillis };
  if (target.protocol === 'grpc')
    return new GrpcTraceExporter({ ...common, metadata: grpcMetadata(target.headers) });
  const config = { ...common, headers: { ...target.headers } };
  return target.protocol === 'http/json' ? new JsonTraceExporter(config) : new ProtobufTraceExporter(config);
}

export function otlpMetricExporter(target: OtlpTarget): PushMetricExporter {
  const common = { url: target.url, timeoutMillis: target.timeoutMillis };
  if (target.protocol === 'grpc')
    return new GrpcMetricExporter({ ...common, metadata: grpcMetadata(target.headers) });
  const config = { ...common, headers: { ...target.headers } };
  return target.protocol === 'http/json'
    ? new JsonMetricExporter(config)
    : new ProtobufMetricExporter(config);
}

export function otlpLogRecordExporter(target: OtlpTarget): LogRecordExporter {
  const common = { url: target.url, timeoutMillis: target.timeoutMillis };
  if (target.protocol === 'grpc')
    return new GrpcLogExporter({ ...common, metadata: grpcMetadata(target.headers) });
  const config = { ...common, headers: { ...target.headers } };
  return target.protocol === 'http/json' ? new JsonLogExporter(config) : new ProtobufLogExporter(config);
}
