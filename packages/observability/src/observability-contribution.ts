import type { TextMapPropagator } from '@opentelemetry/api';
import type { ResourceDetector } from '@opentelemetry/resources';
import type { LogRecordExporter, LogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { IMetricReader, PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { IdGenerator, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Resource attribute values a contribution may add (the OpenTelemetry attribute value types that matter here). */
export type ObservabilityResourceAttributes = Readonly<Record<string, string | number | boolean>>;

/**
 * What a hosted-platform pack (Azure Monitor, AWS, Google Cloud, Datadog...) adds to the one OpenTelemetry SDK
 * that `addOpenTelemetry` starts. Register it with `addObservabilityContribution(builder, contribution)`; the
 * SDK starts once the engine is built, with every contribution registered by then, in registration order.
 *
 * Every member except `id` and `platform` is optional. Factories are called once, when the SDK starts (not at
 * registration), so a pack can read its configuration at registration and create clients only when they are
 * used. Prefer exporters over readers and processors: an exporter is wrapped by the SDK setup so that a failed
 * export is logged with the contribution's `id` (event id) and `platform`; readers and processors a pack builds
 * itself are used as given.
 */
export interface ObservabilityContribution {
  /**
   * The spec's event id of the pack (3111, 3112, ... 3154): the event id of the record logged when the
   * contribution is registered and of every record about a failed export of its exporters. Registered as an
   * event id of the engine under `Observability pack: <platform>`.
   */
  readonly id: number;
  /** The platform's name for people and logs (`Azure Monitor`, `AWS X-Ray`, `Datadog`). */
  readonly platform: string;
  /** Span exporters; each gets a batch span processor (failures logged with `id`). */
  spanExporters?(): readonly SpanExporter[];
  /** Span processors used as given (a platform's own processor that enriches spans). */
  spanProcessors?(): readonly SpanProcessor[];
  /**
   * Push metric exporters; each gets a periodic reader with the section's `MetricExportIntervalMilliseconds`
   * (failures logged with `id`).
   */
  metricExporters?(): readonly PushMetricExporter[];
  /** Metric readers used as given (a pull reader, or a reader with its own interval). */
  metricReaders?(): readonly IMetricReader[];
  /** Log record exporters; each gets a batch log record processor (failures logged with `id`). */
  logRecordExporters?(): readonly LogRecordExporter[];
  /** Log record processors used as given. */
  logRecordProcessors?(): readonly LogRecordProcessor[];
  /** Resource detectors run when the SDK starts, after the core's own (the environment detector). */
  resourceDetectors?(): readonly ResourceDetector[];
  /**
   * Attributes merged into the resource (`cloud.provider`...). The core's `service.*` and
   * `deployment.environment.name` and the section's `ResourceAttributes` win over them.
   */
  readonly resourceAttributes?: ObservabilityResourceAttributes;
  /**
   * Propagators composed after the core's W3C trace context and baggage (AWS X-Ray, B3...). Headers are
   * injected by every propagator and extracted by the first that finds a context.
   */
  propagators?(): readonly TextMapPropagator[];
  /**
   * The span and trace id generator (AWS X-Ray ids). At most one contribution may give one; a second is a
   * build error naming both platforms.
   */
  idGenerator?(): IdGenerator;
}
