import { secretString } from '@corekit/abstractions';
import { z } from 'zod';

/** The configuration section bound by `addOpenTelemetry`. */
export const openTelemetrySectionPath = 'Engine:Observability:OpenTelemetry';

/** OTLP wire formats, named as `OTEL_EXPORTER_OTLP_PROTOCOL` names them. */
export const otlpProtocols = ['http/protobuf', 'http/json', 'grpc'] as const;
export type OtlpProtocol = (typeof otlpProtocols)[number];

/** Who may read the Prometheus route. */
export const prometheusExposures = ['Auto', 'Open', 'RequireAuthorization'] as const;

const resourceAttributesSchema = z.record(z.string().min(1), z.string());

/** `Engine:Observability:OpenTelemetry:Prometheus`: the pull route on the host's own port. */
export const prometheusOptionsSchema = z.object({
  /** Serve the route. Default true. */
  Enabled: z.boolean().default(true),
  /** Path of the route. Default `/metrics`. */
  Path: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]*$/, 'must be an absolute path without parameters (/metrics)')
    .default('/metrics'),
  /**
   * Who may read it: `Auto` (default) follows the host's `/engine` policy (the web host's
   * `Engine:Web:EngineRoutes:Exposure`: guarded under NODE_ENV=production); `Open` serves anyone who reaches
   * the port; `RequireAuthorization` always asks the host's authorize hook.
   */
  Exposure: z.enum(prometheusExposures).default('Auto'),
});

/** `Engine:Observability:OpenTelemetry:Otlp`: push export. Off unless an endpoint is configured. */
export const otlpOptionsSchema = z.object({
  /**
   * Base URL of the collector (`http://localhost:4318` for HTTP, `http://localhost:4317` for gRPC). Default:
   * `OTEL_EXPORTER_OTLP_ENDPOINT`; per-signal `OTEL_EXPORTER_OTLP_{TRACES,METRICS,LOGS}_ENDPOINT` also turn a
   * signal on. Unset everywhere: nothing is pushed.
   */
  Endpoint: z.url().optional(),
  /** Wire format. Default: `OTEL_EXPORTER_OTLP_PROTOCOL`, else `http/protobuf`. */
  Protocol: z.enum(otlpProtocols).optional(),
  /**
   * Headers sent with every export (an API key). Secret: registered for redaction, never logged. Default: the
   * exporters read `OTEL_EXPORTER_OTLP_HEADERS` themselves.
   */
  Headers: z.record(z.string().min(1), secretString('an OTLP header value (an API key)')).default({}),
  /** Export traces, metrics and logs (each defaults to true when OTLP is on). */
  Traces: z.boolean().default(true),
  Metrics: z.boolean().default(true),
  Logs: z.boolean().default(true),
  /** Timeout of one export request, milliseconds. Default: `OTEL_EXPORTER_OTLP_TIMEOUT`, else 10000. */
  TimeoutMilliseconds: z.number().int().positive().max(600_000).optional(),
});

/** How the first span of a trace is chosen for recording (a span with a parent follows the parent's choice). */
export const samplingStrategies = ['RateLimited', 'AlwaysOn', 'Ratio', 'AlwaysOff'] as const;
export type SamplingStrategy = (typeof samplingStrategies)[number];

/**
 * `Engine:Observability:OpenTelemetry:Sampling`: which traces are recorded and exported. Always parent based: a
 * request whose caller recorded its trace (`traceparent` flag 01) is recorded, one whose caller did not is not.
 */
export const samplingOptionsSchema = z
  .object({
    /**
     * `RateLimited`: at most `TracesPerSecond` new traces per process (every trace while traffic stays below it);
     * `AlwaysOn`: every trace; `Ratio`: that share of traces, by trace id; `AlwaysOff`: none. Default:
     * `OTEL_TRACES_SAMPLER` when set, else `RateLimited`.
     */
    Strategy: z.enum(samplingStrategies).optional(),
    /** New traces recorded per second and process under `RateLimited`. Default 10. */
    TracesPerSecond: z.number().positive().max(1_000_000).optional(),
    /** Share of traces recorded under `Ratio`, 0 to 1. Required with `Ratio`. */
    Ratio: z.number().min(0).max(1).optional(),
  })
  .superRefine((value, context) => {
    if (value.Strategy === 'Ratio' && value.Ratio === undefined) {
      context.addIssue({ code: 'custom', path: ['Ratio'], message: 'Strategy Ratio needs a Ratio (0 to 1)' });
    }
    if (value.Ratio !== undefined && value.Strategy !== 'Ratio') {
      context.addIssue({
        code: 'custom',
        path: ['Ratio'],
        message: 'Ratio applies only with Strategy Ratio',
      });
    }
    if (
      value.TracesPerSecond !== undefined &&
      value.Strategy !== undefined &&
      value.Strategy !== 'RateLimited'
    ) {
      context.addIssue({
        code: 'custom',
        path: ['TracesPerSecond'],
        message: 'TracesPerSecond applies only with Strategy RateLimited',
      });
    }
  });
export type SamplingOptions = z.output<typeof samplingOptionsSchema>;

/**
 * `Engine:Observability:OpenTelemetry`. Every key has a default: an empty section gives the Prometheus route,
 * no push export (unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set) and a resource named after the service.
 */
export const openTelemetryOptionsSchema = z.object({
  /** Start the SDK. Default true; `OTEL_SDK_DISABLED=true` turns it off whatever this says. */
  Enabled: z.boolean().default(true),
  /**
   * `service.name`, only when telemetry must name the service differently from the engine. Default: the engine's
   * service (`Engine:Service:Name`, else `OTEL_SERVICE_NAME`, else `corekit-host`), as presence and alerts name it.
   */
  ServiceName: z.string().min(1).max(200).optional(),
  /** `service.version`. Default: the engine's (`Engine:Service:Version`, else `service.version` in `OTEL_RESOURCE_ATTRIBUTES`). */
  ServiceVersion: z.string().min(1).max(100).optional(),
  /** `service.instance.id`. Default: a random UUID per process, as the semantic conventions recommend. */
  ServiceInstanceId: z.string().min(1).max(200).optional(),
  /**
   * `deployment.environment.name`. Default: the engine's environment name (the one that selects
   * `engine.<name>.json`, NODE_ENV by default); left out when there is none.
   */
  DeploymentEnvironment: z.string().min(1).max(100).optional(),
  /** More resource attributes; they win over `OTEL_RESOURCE_ATTRIBUTES` and contributions. Default none. */
  ResourceAttributes: resourceAttributesSchema.default({}),
  /**
   * Interval of periodic metric export (OTLP and contributed push exporters), milliseconds. Default:
   * `OTEL_METRIC_EXPORT_INTERVAL`, else 60000.
   */
  MetricExportIntervalMilliseconds: z.number().int().min(100).max(3_600_000).optional(),
  /**
   * Longest wait for the final flush when the engine stops, milliseconds. Default 5000; the engine's
   * `Engine:Shutdown:StoppingHooksTimeout` (10 s) bounds every stopping hook together.
   */
  ShutdownTimeoutMilliseconds: z.number().int().positive().max(120_000).default(5000),
  Sampling: samplingOptionsSchema.default({}),
  Prometheus: prometheusOptionsSchema.default(prometheusOptionsSchema.parse({})),
  Otlp: otlpOptionsSchema.default(otlpOptionsSchema.parse({})),
});

/** The bound section (defaults applied). */
export type OpenTelemetryOptions = z.output<typeof openTelemetryOptionsSchema>;
/** What `addOpenTelemetry(builder, options)` accepts in code: the section's keys, each optional. */
export type OpenTelemetryOptionsInput = z.input<typeof openTelemetryOptionsSchema>;
