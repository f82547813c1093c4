import {
  context,
  metrics,
  propagation,
  ProxyTracerProvider,
  trace,
  type TextMapPropagator,
  type TracerProvider,
} from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import {
  CompositePropagator,
  getBooleanFromEnv,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import type { ResourceDetector } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, type LogRecordProcessor } from '@opentelemetry/sdk-logs';
import {
  PeriodicExportingMetricReader,
  type IMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  BatchSpanProcessor,
  NoopSpanProcessor,
  type IdGenerator,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { Logger, ServiceIdentity } from '@corekit/abstractions';
import type {
  ObservabilityContribution,
  ObservabilityResourceAttributes,
} from './observability-contribution';
import { observabilityEventIds } from './observability-event-ids';
import type { OpenTelemetryOptions } from './open-telemetry-options';
import type { OtelEnvironment } from './otel-environment';
import {
  otlpLogRecordExporter,
  otlpMetricExporter,
  otlpSpanExporter,
  otlpTargets,
  type OtlpTarget,
} from './otlp-exporters';
import {
  ReportingLogRecordExporter,
  ReportingMetricExporter,
  ReportingSpanExporter,
  throttledFailureReport,
  type ExportFailureReport,
} from './reporting-exporters';
import { telemetryResource } from './telemetry-resource';
import { contributedParts } from './contribution-parts';
import { safeEndpoint } from './safe-endpoint';
import { SharedCumulativeMetricReader, sharesCumulativeStorage } from './shared-metric-reader';
import { traceSampling, type TraceSampling } from './trace-sampling';
import { PooledRandomIdGenerator } from './pooled-random-ids';
import { ParentFollowingTracerProvider } from './unsampled-children';

const category = 'corekit.observability';

/** Unregisters the providers from the OpenTelemetry API, so a later SDK in the same process can register its own. */
function unregisterGlobals(): void {
  for (const api of [trace, metrics, propagation, context, logs]) api.disable();
}

/** What the running SDK reports about itself (the technology surface, the started record). */
export interface TelemetryDescription {
  readonly state: 'NotStarted' | 'Started' | 'Disabled' | 'Failed' | 'Stopped';
  readonly serviceName: string | null;
  readonly prometheusPath: string | null;
  /** One entry per OTLP signal pushed: signal, protocol and the URL without credentials or query. */
  readonly otlp: ReadonlyArray<{
    readonly signal: string;
    readonly protocol: string;
    readonly endpoint: string;
  }>;
  /** The platforms whose contributions are installed, with their event ids. */
  readonly contributions: ReadonlyArray<{ readonly id: number; readonly platform: string }>;
  /**
   * The trace sampler running: its `OTEL_TRACES_SAMPLER` name, its argument (traces per second, ratio) and where
   * the choice came from; null until the SDK starts.
   */
  readonly sampler: {
    readonly name: string;
    readonly argument: number | null;
    readonly source: TraceSampling['source'];
  } | null;
  /**
   * Who makes trace and span ids: `random` (this package's, from the operating system's random source) or the
   * platform whose contribution gives its own (X-Ray's); null until the SDK starts.
   */
  readonly idGenerator: string | null;
}

export interface TelemetrySdkInputs {
  readonly options: OpenTelemetryOptions;
  readonly environment: OtelEnvironment;
  readonly environmentName: string | undefined;
  /** The engine's service (`builder.service`), the resource's `service.name` unless the section names one. */
  readonly service: ServiceIdentity;
  readonly contributions: readonly ObservabilityContribution[];
  readonly logger: Logger;
  /** Registers a secret value (OTLP header values from the environment). */
  readonly addSecret: (value: string) => void;
}

/** The tracer provider the API delegates to now (its no-op one while none is registered). */
export function registeredTracerProvider(): TracerProvider {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
}

/**
 * The one OpenTelemetry Node SDK of a host: built from the section, the `OTEL_*` variables and every
 * contribution when `start()` is called, flushed and shut down by `stop()`.
 */
export class TelemetrySdk {
  private sdk: NodeSDK | undefined;
  /** The reader the Prometheus route collects from (it also pushes to the cumulative exporters). */
  private prometheus: SharedCumulativeMetricReader | undefined;
  private readonly serializer = new PrometheusSerializer();
  /** What the SDK reports except `contributions`, which is read from the installation each time (see describe). */
  private description: Omit<TelemetryDescription, 'contributions'>;

  constructor(private readonly inputs: TelemetrySdkInputs) {
    this.description = {
      state: 'NotStarted',
      serviceName: null,
      prometheusPath: null,
      otlp: [],
      sampler: null,
      idGenerator: null,
    };
  }

  /**
   * The SDK's state, with the contributions read from the builder's registry now (never a copy taken when the
   * SDK was made): a platform pack added after `addOpenTelemetry` is listed like one added before.
   */
  describe(): TelemetryDescription {
    return { ...this.description, contributions: this.installedContributions() };
  }

  private installedContributions(): TelemetryDescription['contributions'] {
    return this.inputs.contributions.map(({ id, platform }) => ({ id, platform }));
  }

  /**
   * Builds and starts the SDK; does nothing while it runs (the second half of a restart), builds a new one after
   * a stop. Never throws (a failure is logged, event 3014, and the engine runs without it).
   */
  start(): void {
    if (this.sdk) return;
    const { options, environment, logger } = this.inputs;
    if (!options.Enabled || environment.sdkDisabled) {
      this.description = { ...this.description, state: 'Disabled' };
      logger.log({
        level: 'info',
        eventId: observabilityEventIds.disabled,
        category,
        message: `OpenTelemetry is off (${options.Enabled ? 'OTEL_SDK_DISABLED=true' : 'Engine:Observability:OpenTelemetry:Enabled is false'}): instruments and spans are no-ops`,
      });
      return;
    }
    try {
      this.startSdk();
    } catch (error) {
      // Nothing half-started stays the process's provider: the next start builds a new SDK.
      this.sdk = undefined;
      unregisterGlobals();
      this.description = { ...this.description, state: 'Failed' };
      logger.log({
        level: 'error',
        eventId: observabilityEventIds.startFailed,
        category,
        message: `OpenTelemetry could not start: ${(error as Error)?.message ?? String(error)}; the engine runs without telemetry`,
      });
    }
  }

  private startSdk(): void {
    const { options, environment, contributions } = this.inputs;
    const targets = otlpTargets(options.Otlp, environment);
    const sampling = traceSampling(options.Sampling, environment);
    for (const target of targets)
      for (const value of Object.values(target.headers)) this.inputs.addSecret(value);
    const interval = options.MetricExportIntervalMilliseconds ?? environment.metricExportInterval ?? 60_000;
    const exportTimeout = Math.min(interval, 30_000);
    const spanProcessors: SpanProcessor[] = [];
    const metricReaders: IMetricReader[] = [];
    const logRecordProcessors: LogRecordProcessor[] = [];
    const detectors: ResourceDetector[] = [];
    const attributes: ObservabilityResourceAttributes[] = [];
    const propagators: TextMapPropagator[] = [];
    let idGenerator: { readonly platform: string; readonly generator: IdGenerator } | undefined;

    // Every push exporter that wants what the Prometheus route serves (cumulative, default aggregation) is fed
    // from one shared reader: one storage, so each measurement is hashed and aggregated once for all of them.
    // An exporter that wants delta (the platform packs, OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE) or
    // another aggregation keeps a periodic reader, so a storage, of its own.
    const cumulativeExporters: PushMetricExporter[] = [];
    const addMetricExporter = (exporter: PushMetricExporter) => {
      if (sharesCumulativeStorage(exporter)) {
        cumulativeExporters.push(exporter);
        return;
      }
      metricReaders.push(
        new PeriodicExportingMetricReader({
          exporter,
          exportIntervalMillis: interval,
          exportTimeoutMillis: exportTimeout,
        }),
      );
    };

    for (const target of targets) {
      const failed = this.coreFailureReport(target);
      if (target.signal === 'traces') {
        spanProcessors.push(
          new BatchSpanProcessor(new ReportingSpanExporter(otlpSpanExporter(target), failed)),
        );
      } else if (target.signal === 'metrics') {
        addMetricExporter(new ReportingMetricExporter(otlpMetricExporter(target), failed));
      } else {
        logRecordProcessors.push(
          new BatchLogRecordProcessor({
            exporter: new ReportingLogRecordExporter(otlpLogRecordExporter(target), failed),
          }),
        );
      }
    }
    for (const contribution of contributions) {
      const failed = this.contributionFailureReport(contribution);
      const parts = contributedParts(contribution, this.inputs.logger);
      for (const exporter of parts.spanExporters) {
        spanProcessors.push(new BatchSpanProcessor(new ReportingSpanExporter(exporter, failed)));
      }
      spanProcessors.push(...parts.spanProcessors);
      for (const exporter of parts.metricExporters)
        addMetricExporter(new ReportingMetricExporter(exporter, failed));
      metricReaders.push(...parts.metricReaders);
      for (const exporter of parts.logRecordExporters) {
        logRecordProcessors.push(
          new BatchLogRecordProcessor({ exporter: new ReportingLogRecordExporter(exporter, failed) }),
        );
      }
      logRecordProcessors.push(...parts.logRecordProcessors);
      detectors.push(...parts.resourceDetectors);
      propagators.push(...parts.propagators);
      if (contribution.resourceAttributes) attributes.push(contribution.resourceAttributes);
      if (parts.idGenerator) {
        if (idGenerator) {
          throw new Error(
            `Two observability contributions give an id generator (${idGenerator.platform} and ${contribution.platform}); keep one`,
          );
        }
        idGenerator = { platform: contribution.platform, generator: parts.idGenerator };
      }
    }

    this.prometheus = undefined;
    if (options.Prometheus.Enabled || cumulativeExporters.length > 0) {
      const shared = new SharedCumulativeMetricReader({
        exporters: cumulativeExporters,
        exportIntervalMillis: interval,
        exportTimeoutMillis: exportTimeout,
      });
      // First, where the Prometheus reader always was.
      metricReaders.unshift(shared);
      this.prometheus = options.Prometheus.Enabled ? shared : undefined;
    }

    const resource = telemetryResource({
      options,
      environment,
      environmentName: this.inputs.environmentName,
      service: this.inputs.service,
      contributedAttributes: attributes,
      contributedDetectors: detectors,
    });
    // A platform's id generator (X-Ray's time-prefixed trace ids) when one is contributed, else ours.
    const ids = idGenerator?.generator ?? new PooledRandomIdGenerator();
    this.sdk = new NodeSDK({
      resource,
      autoDetectResources: false,
      // A tracer provider always: spans give every log record written inside them its trace_id and span_id,
      // and incoming traceparent headers are continued, even when nothing exports spans.
      spanProcessors: spanProcessors.length > 0 ? spanProcessors : [new NoopSpanProcessor()],
      metricReaders,
      logRecordProcessors,
      textMapPropagator: new CompositePropagator({
        propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator(), ...propagators],
      }),
      sampler: sampling.sampler,
      idGenerator: ids,
    });
    const registeredBefore = registeredTracerProvider();
    this.sdk.start();
    // A parent-based sampler leaves every child of an unsampled span unrecorded: such a child is answered without
    // the SDK's tracer (`ParentFollowingTracerProvider`). Only in front of the provider this SDK registered (one
    // registered earlier by the host keeps the API, and its own sampler), and not while the SDK counts its own
    // spans (OTEL_NODE_EXPERIMENTAL_SDK_METRICS, read where the SDK reads it), which would miss those children.
    const sdkProvider = registeredTracerProvider();
    if (
      sdkProvider !== registeredBefore &&
      sampling.parentBased &&
      !getBooleanFromEnv('OTEL_NODE_EXPERIMENTAL_SDK_METRICS')
    ) {
      trace.disable();
      trace.setGlobalTracerProvider(new ParentFollowingTracerProvider(sdkProvider, ids));
    }
    const serviceName = String(resource.attributes['service.name']);
    this.description = {
      ...this.description,
      state: 'Started',
      serviceName,
      prometheusPath: options.Prometheus.Enabled ? options.Prometheus.Path : null,
      otlp: targets.map((target) => ({
        signal: target.signal,
        protocol: target.protocol,
        endpoint: safeEndpoint(target.url),
      })),
      sampler: { name: sampling.name, argument: sampling.argument ?? null, source: sampling.source },
      idGenerator: idGenerator ? idGenerator.platform : 'random',
    };
    this.inputs.logger.log({
      level: 'info',
      eventId: observabilityEventIds.started,
      category,
      message: `OpenTelemetry started for ${serviceName}: ${
        [
          options.Prometheus.Enabled ? `Prometheus at ${options.Prometheus.Path}` : undefined,
          ...this.description.otlp.map(
            (target) => `${target.signal} over OTLP ${target.protocol} to ${target.endpoint}`,
          ),
          ...contributions.map((contribution) => `${contribution.platform} (${contribution.id})`),
        ]
          .filter(Boolean)
          .join(', ') || 'no exporter'
      }; traces sampled by ${sampling.name}${sampling.argument === undefined ? '' : ` (${sampling.argument})`}`,
      otlp: this.description.otlp,
      contributions: this.installedContributions(),
      sampler: this.description.sampler,
    });
  }

  private coreFailureReport(target: OtlpTarget): ExportFailureReport {
    return throttledFailureReport((error, suppressed) =>
      this.inputs.logger.log({
        level: 'warn',
        eventId: observabilityEventIds.exportFailed,
        category,
        message: `OTLP export of ${target.signal} to ${safeEndpoint(target.url)} failed: ${error?.message ?? 'no reason given'}${suppressed ? ` (${suppressed} more failures since the last report)` : ''}`,
        signal: target.signal,
      }),
    );
  }

  private contributionFailureReport(contribution: ObservabilityContribution): ExportFailureReport {
    return throttledFailureReport((error, suppressed) =>
      this.inputs.logger.log({
        level: 'warn',
        eventId: contribution.id,
        category,
        message: `The ${contribution.platform} observability pack (${contribution.id}) failed to export: ${error?.message ?? 'no reason given'}${suppressed ? ` (${suppressed} more failures since the last report)` : ''}`,
        platform: contribution.platform,
      }),
    );
  }

  /** The current metrics in the Prometheus text format; empty when the route's reader is not running. */
  async prometheusText(): Promise<string> {
    if (!this.prometheus || this.description.state !== 'Started') {
      return `# OpenTelemetry is ${this.description.state === 'Disabled' ? 'off' : 'not running'}: no metrics\n`;
    }
    const { resourceMetrics } = await this.prometheus.collect();
    return this.serializer.serialize(resourceMetrics);
  }

  /**
   * Flushes and shuts the SDK down within `timeoutMs`, then unregisters it from the OpenTelemetry API so a later
   * engine in the same process can start its own. Never throws; logs event 3013 (warn when it ran out of time).
   */
  async stop(timeoutMs: number): Promise<void> {
    const sdk = this.sdk;
    if (!sdk || this.description.state !== 'Started') return;
    this.sdk = undefined;
    this.description = { ...this.description, state: 'Stopped' };
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      sdk.shutdown().then(
        () => 'flushed' as const,
        (error: unknown) => error as Error,
      ),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    unregisterGlobals();
    this.inputs.logger.log({
      level: outcome === 'flushed' ? 'info' : 'warn',
      eventId: observabilityEventIds.stopped,
      category,
      message:
        outcome === 'flushed'
          ? 'OpenTelemetry flushed and stopped'
          : outcome === 'timeout'
            ? `OpenTelemetry did not finish flushing within ${timeoutMs} ms (ShutdownTimeoutMilliseconds); buffered data may be lost`
            : `OpenTelemetry shut down with an error: ${outcome.message}`,
    });
  }
}
