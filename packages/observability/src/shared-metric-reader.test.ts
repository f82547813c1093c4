import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import {
  AggregationTemporalityPreference,
  OTLPMetricExporter,
} from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  AggregationType,
  InstrumentType,
  MeterProvider,
  type IMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { pollUntil } from '@corekit/testing/poll-until';
import { ReportingMetricExporter } from './reporting-exporters';
import { SharedCumulativeMetricReader, sharesCumulativeStorage } from './shared-metric-reader';

/** A push exporter that keeps what it was given; `hold` makes it keep the answer until `release()`. */
function recordingExporter(options: { hold?: boolean } = {}) {
  const held: Array<(result: ExportResult) => void> = [];
  const exporter = {
    exports: [] as ResourceMetrics[],
    flushes: 0,
    shutdowns: 0,
    hold: options.hold ?? false,
    export(metrics: ResourceMetrics, done: (result: ExportResult) => void) {
      exporter.exports.push(metrics);
      if (exporter.hold) held.push(done);
      else done({ code: ExportResultCode.SUCCESS });
    },
    release() {
      exporter.hold = false;
      for (const done of held.splice(0)) done({ code: ExportResultCode.SUCCESS });
    },
    forceFlush: async () => {
      exporter.flushes++;
    },
    shutdown: async () => {
      exporter.shutdowns++;
    },
  };
  return exporter;
}

/** An exporter that fails every way it can: export throws, flush and shutdown reject. */
function brokenExporter(): PushMetricExporter & { attempts: number } {
  const exporter = {
    attempts: 0,
    export(): void {
      exporter.attempts++;
      throw new Error('the exporter threw');
    },
    forceFlush: () => Promise.reject(new Error('flush refused')),
    shutdown: () => Promise.reject(new Error('shutdown refused')),
  };
  return exporter;
}

/** The value of the sum `name` in one export (undefined when the export does not carry it). */
function sumValue(metrics: ResourceMetrics | undefined, name: string): number | undefined {
  const metric = metrics?.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((candidate) => candidate.descriptor.name === name);
  const point = metric?.dataPoints[0];
  return typeof point?.value === 'number' ? point.value : undefined;
}

const providers: MeterProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.shutdown().catch(() => undefined)));
});

function provider(...readers: IMetricReader[]): MeterProvider {
  const created = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': 'reader-test' }),
    readers,
  });
  providers.push(created);
  return created;
}

describe('SharedCumulativeMetricReader', () => {
  it('serves the same Prometheus text as the SDK PrometheusExporter on the same provider', async () => {
    const shared = new SharedCumulativeMetricReader({
      exporters: [],
      exportIntervalMillis: 60_000,
      exportTimeoutMillis: 30_000,
    });
    const prometheus = new PrometheusExporter({ preventServerStart: true });
    const meter = provider(shared, prometheus).getMeter('corekit.test', '1.0.0');
    meter.createCounter('corekit.test.orders', { unit: '{order}' }).add(3, { region: 'eu' });
    const histogram = meter.createHistogram('corekit.test.duration', { unit: 's' });
    histogram.record(0.2, { route: '/a' });
    histogram.record(4, { route: '/a' });
    meter.createUpDownCounter('corekit.test.in_flight').add(-2);
    meter.createObservableGauge('corekit.test.queue').addCallback((result) => result.observe(7, { q: 'x' }));

    const serializer = new PrometheusSerializer();
    const fromShared = serializer.serialize((await shared.collect()).resourceMetrics);
    const fromExporter = serializer.serialize((await prometheus.collect()).resourceMetrics);
    expect(fromShared).toContain('corekit_test_orders_total{region="eu"');
    expect(fromShared).toContain('corekit_test_duration_count{route="/a"');
    expect(fromShared).toBe(fromExporter);
  });

  it('tells which exporters can share the cumulative storage', () => {
    const cumulativeOtlp = new OTLPMetricExporter({
      url: 'http://127.0.0.1:9/v1/metrics',
      temporalityPreference: AggregationTemporalityPreference.CUMULATIVE,
    });
    const deltaOtlp = new OTLPMetricExporter({
      url: 'http://127.0.0.1:9/v1/metrics',
      temporalityPreference: AggregationTemporalityPreference.DELTA,
    });
    const lowMemoryOtlp = new OTLPMetricExporter({
      url: 'http://127.0.0.1:9/v1/metrics',
      temporalityPreference: AggregationTemporalityPreference.LOWMEMORY,
    });
    const report = () => undefined;
    expect(sharesCumulativeStorage(recordingExporter())).toBe(true);
    expect(sharesCumulativeStorage(new ReportingMetricExporter(cumulativeOtlp, report))).toBe(true);
    expect(sharesCumulativeStorage(new ReportingMetricExporter(deltaOtlp, report))).toBe(false);
    expect(sharesCumulativeStorage(new ReportingMetricExporter(lowMemoryOtlp, report))).toBe(false);
    const explicitHistograms: PushMetricExporter = {
      ...recordingExporter(),
      selectAggregation: (type) =>
        type === InstrumentType.HISTOGRAM
          ? { type: AggregationType.EXPLICIT_BUCKET_HISTOGRAM, options: { boundaries: [1] } }
          : { type: AggregationType.DEFAULT },
    };
    expect(sharesCumulativeStorage(explicitHistograms)).toBe(false);
    const throwing: PushMetricExporter = {
      ...recordingExporter(),
      selectAggregationTemporality: () => {
        throw new Error('no preference');
      },
    };
    expect(sharesCumulativeStorage(throwing)).toBe(false);
    const deltaUpDown: PushMetricExporter = {
      ...recordingExporter(),
      selectAggregationTemporality: (type) =>
        type === InstrumentType.OBSERVABLE_UP_DOWN_COUNTER
          ? AggregationTemporality.DELTA
          : AggregationTemporality.CUMULATIVE,
    };
    expect(sharesCumulativeStorage(deltaUpDown)).toBe(false);
  });

  it('pushes one collection to every exporter; a busy exporter skips ticks without holding up the others', async () => {
    const slow = recordingExporter({ hold: true });
    const fast = recordingExporter();
    const shared = new SharedCumulativeMetricReader({
      exporters: [slow, fast],
      exportIntervalMillis: 100,
      exportTimeoutMillis: 100,
    });
    const counter = provider(shared).getMeter('corekit.test').createCounter('corekit.test.ticks');
    counter.add(2);

    // The slow exporter has not answered its first export: it is given no second one meanwhile.
    await pollUntil(
      async () => fast.exports.length,
      (count) => count >= 3,
      { timeoutMs: 15_000 },
    );
    expect(fast.exports.length).toBeGreaterThanOrEqual(3);
    expect(slow.exports).toHaveLength(1);
    // The first round handed both exporters the very same collection.
    expect(slow.exports[0]).toBe(fast.exports[0]);
    expect(sumValue(fast.exports.at(-1), 'corekit.test.ticks')).toBe(2);

    slow.release();
    counter.add(3);
    const later = await pollUntil(
      async () => slow.exports.slice(1),
      (exports) => exports.some((metrics) => sumValue(metrics, 'corekit.test.ticks') === 5),
      { timeoutMs: 15_000 },
    );
    expect(later.map((metrics) => sumValue(metrics, 'corekit.test.ticks'))).toContain(5);
  });

  it('forceFlush collects once for all, exports and flushes each; a throwing exporter does not stop the other', async () => {
    const broken = brokenExporter();
    const recording = recordingExporter();
    const shared = new SharedCumulativeMetricReader({
      exporters: [broken, recording],
      exportIntervalMillis: 3_600_000,
      exportTimeoutMillis: 30_000,
    });
    const meterProvider = provider(shared);
    const counter = meterProvider.getMeter('corekit.test').createCounter('corekit.test.flushed');
    counter.add(4);
    await meterProvider.forceFlush();
    expect(broken.attempts).toBe(1);
    expect(recording.exports).toHaveLength(1);
    expect(recording.flushes).toBe(1);
    expect(sumValue(recording.exports[0], 'corekit.test.flushed')).toBe(4);

    counter.add(1);
    await meterProvider.shutdown();
    // The shutdown pushed the last values (cumulative: 5) to both, then shut both down.
    expect(broken.attempts).toBe(2);
    expect(recording.exports).toHaveLength(2);
    expect(sumValue(recording.exports[1], 'corekit.test.flushed')).toBe(5);
    expect(recording.shutdowns).toBe(1);
  });

  it('pull only (no push exporter): no timer, flush and shutdown export nothing', async () => {
    const shared = new SharedCumulativeMetricReader({
      exporters: [],
      exportIntervalMillis: 100,
      exportTimeoutMillis: 100,
    });
    const meterProvider = provider(shared);
    meterProvider.getMeter('corekit.test').createCounter('corekit.test.pulled').add(1);
    expect(shared.exporterCount).toBe(0);
    await meterProvider.forceFlush();
    const { resourceMetrics } = await shared.collect();
    expect(sumValue(resourceMetrics, 'corekit.test.pulled')).toBe(1);
    await meterProvider.shutdown();
    await expect(shared.collect()).rejects.toThrow(/shutdown/);
  });
});
