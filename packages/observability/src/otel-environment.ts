import { parseOtelKeyValueList } from '@corekit/abstractions';
import type { OtlpProtocol } from './open-telemetry-options';
import { otlpProtocols } from './open-telemetry-options';

/** The three OpenTelemetry signals, as the OTLP variables and paths name them. */
export type TelemetrySignal = 'traces' | 'metrics' | 'logs';

/** Reads one environment variable (the engine's environment, so a test can pass its own). */
export type EnvironmentVariable = (name: string) => string | undefined;

/**
 * The standard `OTEL_*` variables this package honours, read from the engine's environment (the list is in the
 * README). Anything not set is undefined; values are trimmed, empty counts as unset.
 */
export class OtelEnvironment {
  constructor(private readonly variable: EnvironmentVariable) {}

  private read(name: string): string | undefined {
    const value = this.variable(name)?.trim();
    return value ? value : undefined;
  }

  /** `OTEL_SDK_DISABLED=true` (case-insensitive). */
  get sdkDisabled(): boolean {
    return this.read('OTEL_SDK_DISABLED')?.toLowerCase() === 'true';
  }

  get serviceName(): string | undefined {
    return this.read('OTEL_SERVICE_NAME');
  }

  /** `OTEL_RESOURCE_ATTRIBUTES`: `key=value` pairs, comma separated, values percent-decoded. */
  get resourceAttributes(): Record<string, string> {
    return parseOtelKeyValueList(this.read('OTEL_RESOURCE_ATTRIBUTES'));
  }

  /** `OTEL_TRACES_SAMPLER`, as given (the sampler module checks the name). */
  get tracesSampler(): string | undefined {
    return this.read('OTEL_TRACES_SAMPLER');
  }

  /** `OTEL_TRACES_SAMPLER_ARG`, as given. */
  get tracesSamplerArgument(): string | undefined {
    return this.read('OTEL_TRACES_SAMPLER_ARG');
  }

  /** `OTEL_METRIC_EXPORT_INTERVAL`, milliseconds. */
  get metricExportInterval(): number | undefined {
    return positiveInteger(this.read('OTEL_METRIC_EXPORT_INTERVAL'));
  }

  /** `OTEL_EXPORTER_OTLP_<SIGNAL>_TIMEOUT`, else `OTEL_EXPORTER_OTLP_TIMEOUT`, milliseconds. */
  timeout(signal: TelemetrySignal): number | undefined {
    return positiveInteger(
      this.read(`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_TIMEOUT`) ??
        this.read('OTEL_EXPORTER_OTLP_TIMEOUT'),
    );
  }

  /** `OTEL_<SIGNAL>_EXPORTER=none` switches a signal's exporter off. */
  exporterOff(signal: TelemetrySignal): boolean {
    return this.read(`OTEL_${signal.toUpperCase()}_EXPORTER`)?.toLowerCase() === 'none';
  }

  /** `OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT` (a full URL, used as is). */
  signalEndpoint(signal: TelemetrySignal): string | undefined {
    return this.read(`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`);
  }

  /** `OTEL_EXPORTER_OTLP_ENDPOINT` (a base URL: `/v1/<signal>` is appended for HTTP). */
  get endpoint(): string | undefined {
    return this.read('OTEL_EXPORTER_OTLP_ENDPOINT');
  }

  /** `OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`; an unknown value throws. */
  protocol(signal: TelemetrySignal): OtlpProtocol | undefined {
    const name = `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`;
    const given = this.read(name) ?? this.read('OTEL_EXPORTER_OTLP_PROTOCOL');
    if (given === undefined) return undefined;
    const known = otlpProtocols.find((protocol) => protocol === given.toLowerCase());
    if (!known) {
      throw new Error(
        `${this.read(name) ? name : 'OTEL_EXPORTER_OTLP_PROTOCOL'} is "${given}"; expected one of ${otlpProtocols.join(', ')}`,
      );
    }
    return known;
  }

  /** `OTEL_EXPORTER_OTLP_HEADERS` merged with `OTEL_EXPORTER_OTLP_<SIGNAL>_HEADERS` (the signal's win). */
  headers(signal: TelemetrySignal): Record<string, string> {
    return {
      ...parseOtelKeyValueList(this.read('OTEL_EXPORTER_OTLP_HEADERS')),
      ...parseOtelKeyValueList(this.read(`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_HEADERS`)),
    };
  }
}

function positiveInteger(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
