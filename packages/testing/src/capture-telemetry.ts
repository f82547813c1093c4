import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  MetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import type { PackTelemetry } from '@corekit/abstractions';
import { EngineMeter, EngineTracer } from '@corekit/engine-core';

/** Re-exported so a test that checks span kinds needs no direct OpenTelemetry dependency. */
export { SpanKind } from '@opentelemetry/api';

/** A reader collected on demand (the test asks; nothing exports on a timer). */
class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** One recorded data point of an instrument, cumulative since the capture started. */
export interface CapturedPoint {
  readonly attributes: Readonly<Record<string, unknown>>;
  /** Counter: the sum. Histogram: the number of recordings. */
  readonly value: number;
  /** Histogram only: the bucket boundaries the SDK aggregated with. */
  readonly boundaries?: readonly number[];
}

/** An instrument as the SDK exported it. */
export interface CapturedInstrument {
  readonly name: string;
  readonly unit: string;
  readonly kind: 'counter' | 'histogram' | 'other';
  readonly points: readonly CapturedPoint[];
}

export interface TelemetryCapture {
  /** The engine's meter and tracer, for a client built without a builder (`provider.useTelemetry(...)`). */
  readonly telemetry: PackTelemetry;
  /** Spans ended so far. */
  spans(): readonly ReadableSpan[];
  /** Collects every instrument now. */
  instruments(): Promise<readonly CapturedInstrument[]>;
  /** Collects the instrument named `name`, undefined when nothing recorded on it. */
  instrument(name: string): Promise<CapturedInstrument | undefined>;
  /** Unregisters the SDK pieces and the context manager. */
  stop(): Promise<void>;
}

function pointsOf(metric: MetricData): CapturedPoint[] {
  if (metric.dataPointType === DataPointType.HISTOGRAM) {
    return metric.dataPoints.map((point) => ({
      attributes: point.attributes,
      value: point.value.count,
      boundaries: point.value.buckets.boundaries,
    }));
  }
  if (metric.dataPointType === DataPointType.SUM || metric.dataPointType === DataPointType.GAUGE) {
    return metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value }));
  }
  return [];
}

/**
 * Registers an in-process OpenTelemetry SDK for one test file: spans go to an in-memory exporter as they
 * end, metrics are collected when asked, trace context travels with async calls (AsyncLocalStorage) and
 * over W3C `traceparent`. Every engine and pack instrument follows the registered providers, so a builder
 * made before or after the call records into it. Call `stop()` in `afterAll`.
 */
export function captureTelemetry(): TelemetryCapture {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  const instruments = async (): Promise<CapturedInstrument[]> => {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics.flatMap((scope) =>
      scope.metrics.map((metric) => ({
        name: metric.descriptor.name,
        unit: metric.descriptor.unit,
        kind:
          metric.dataPointType === DataPointType.HISTOGRAM
            ? ('histogram' as const)
            : metric.dataPointType === DataPointType.SUM
              ? ('counter' as const)
              : ('other' as const),
        points: pointsOf(metric),
      })),
    );
  };
  return {
    telemetry: { meter: new EngineMeter(), tracer: new EngineTracer() },
    spans: () => exporter.getFinishedSpans(),
    instruments,
    instrument: async (name) => (await instruments()).find((metric) => metric.name === name),
    async stop() {
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
