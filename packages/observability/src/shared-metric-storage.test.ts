import { metrics } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InstrumentType,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { startOtlpReceiver, type OtlpReceiver } from '@corekit/testing/fakes/otlp/otlp-receiver';
import { pollUntil } from '@corekit/testing/poll-until';
import { addObservabilityContribution } from './add-observability-contribution';
import { closeTelemetryHosts, prometheusSample, startTelemetryHost } from './test-support/telemetry-host';

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await closeTelemetryHosts();
  await receiver?.close();
  receiver = undefined;
});

/**
 * How many metric storages one measurement goes through, counted from the outside: each storage hashes the
 * measurement's attributes (their keys read once) to find its series, so a counter add on an attribute set
 * already seen reads the keys once per storage, that is once per metric reader without a view.
 */
function storagesPerMeasurement(): number {
  const counter = metrics.getMeter('corekit.test.probe').createCounter('corekit.test.storage_probe');
  let keyReads = 0;
  const attributes = new Proxy(
    { probe: 'storages' },
    {
      ownKeys(target) {
        keyReads++;
        return Reflect.ownKeys(target);
      },
    },
  );
  counter.add(1, attributes); // creates the series in every storage
  keyReads = 0;
  counter.add(1, attributes);
  return keyReads;
}

/** A contributed push exporter that keeps every export; `temporality` as a platform pack would ask for it. */
function recordingExporter(temporality?: AggregationTemporality) {
  const exporter = {
    exports: [] as ResourceMetrics[],
    shutdowns: 0,
    ...(temporality === undefined
      ? {}
      : {
          selectAggregationTemporality: (type: InstrumentType) =>
            type === InstrumentType.UP_DOWN_COUNTER || type === InstrumentType.OBSERVABLE_UP_DOWN_COUNTER
              ? AggregationTemporality.CUMULATIVE
              : temporality,
        }),
    export(batch: ResourceMetrics, done: (result: ExportResult) => void) {
      exporter.exports.push(batch);
      done({ code: ExportResultCode.SUCCESS });
    },
    forceFlush: async () => undefined,
    shutdown: async () => {
      exporter.shutdowns++;
    },
  };
  return exporter;
}

/** The sum of `name` in each export that carries a point for it, in export order. */
function sums(exports: readonly ResourceMetrics[], name: string): number[] {
  return exports.flatMap((batch) =>
    batch.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .filter((metric) => metric.descriptor.name === name)
      .flatMap((metric) => metric.dataPoints.map((point) => point.value))
      .filter((value): value is number => typeof value === 'number'),
  );
}

describe('one metric storage for the Prometheus route and the cumulative OTLP push', () => {
  it('serves and pushes the same cumulative counts from one storage', async () => {
    receiver = await startOtlpReceiver();
    const telemetry = await startTelemetryHost({
      openTelemetry: {
        MetricExportIntervalMilliseconds: 200,
        Otlp: { Endpoint: receiver.url, Traces: false, Logs: false },
      },
    });
    const counter = metrics.getMeter('corekit.test').createCounter('corekit.test.shared_adds');
    for (let index = 0; index < 7; index++) counter.add(1, { source: 'shared' });

    const { text } = await telemetry.get('/metrics');
    expect(prometheusSample(text, 'corekit_test_shared_adds_total', { source: 'shared' })).toBe(7);
    const pushed = await pollUntil(
      async () => receiver!.metrics.filter((metric) => metric.name === 'corekit.test.shared_adds'),
      (found) => found.some((metric) => metric.dataPoints[0]?.value === 7),
      { timeoutMs: 15_000 },
    );
    expect(pushed.at(-1)).toMatchObject({
      type: 'sum',
      temporality: 'cumulative',
      monotonic: true,
      dataPoints: [expect.objectContaining({ value: 7, attributes: { source: 'shared' } })],
    });
    // Prometheus and the OTLP push: one storage (before, one per reader: 2).
    expect(storagesPerMeasurement()).toBe(1);
    // What the host reports is unchanged: the OTLP metrics target, no word about readers.
    const surfaces = JSON.parse((await telemetry.get('/engine/technology-surfaces')).text);
    const surface = surfaces.find((entry: { id: string }) => entry.id === 'observability.opentelemetry');
    expect(surface.metadata.otlp).toEqual([
      { signal: 'metrics', protocol: 'http/protobuf', endpoint: `${receiver.url}/v1/metrics` },
    ]);
  });

  it('a delta exporter keeps its own storage and receives deltas while Prometheus stays cumulative', async () => {
    const delta = recordingExporter(AggregationTemporality.DELTA);
    const telemetry = await startTelemetryHost({
      openTelemetry: { MetricExportIntervalMilliseconds: 200 },
      setup: (builder) =>
        addObservabilityContribution(builder, {
          id: 3121,
          platform: 'Delta Cloud',
          metricExporters: () => [delta],
        }),
    });
    const counter = metrics.getMeter('corekit.test').createCounter('corekit.test.delta_adds');
    counter.add(3, { source: 'delta' });
    await pollUntil(
      async () => sums(delta.exports, 'corekit.test.delta_adds'),
      (values) => values.length >= 1,
      { timeoutMs: 15_000 },
    );
    counter.add(2, { source: 'delta' });
    const values = await pollUntil(
      async () => sums(delta.exports, 'corekit.test.delta_adds'),
      (found) => found.length >= 2,
      { timeoutMs: 15_000 },
    );
    // Each export carries only what was added since the previous one.
    expect(values).toEqual([3, 2]);
    const { text } = await telemetry.get('/metrics');
    expect(prometheusSample(text, 'corekit_test_delta_adds_total', { source: 'delta' })).toBe(5);
    const exported = delta.exports
      .flatMap((batch) => batch.scopeMetrics.flatMap((scope) => scope.metrics))
      .find((metric) => metric.descriptor.name === 'corekit.test.delta_adds');
    expect(exported).toMatchObject({ aggregationTemporality: AggregationTemporality.DELTA });
    // The shared cumulative storage (Prometheus) and the delta exporter's own.
    expect(storagesPerMeasurement()).toBe(2);
  });

  it('without Prometheus, cumulative exporters share one storage; the stop pushes the last points, a failing exporter stops no other', async () => {
    const recording = recordingExporter();
    const failing: PushMetricExporter & { attempts: number } = {
      attempts: 0,
      export() {
        failing.attempts++;
        throw new Error('ingestion is down');
      },
      forceFlush: () => Promise.reject(new Error('ingestion is down')),
      shutdown: () => Promise.reject(new Error('ingestion is down')),
    };
    const telemetry = await startTelemetryHost({
      // No export before the stop: whatever arrives was pushed by the shutdown.
      openTelemetry: { MetricExportIntervalMilliseconds: 3_600_000, Prometheus: { Enabled: false } },
      setup: (builder) => {
        addObservabilityContribution(builder, {
          id: 3122,
          platform: 'Failing Cloud',
          metricExporters: () => [failing],
        });
        addObservabilityContribution(builder, {
          id: 3123,
          platform: 'Working Cloud',
          metricExporters: () => [recording],
        });
      },
    });
    expect((await telemetry.get('/metrics')).status).toBe(404);
    const counter = metrics.getMeter('corekit.test').createCounter('corekit.test.last_adds');
    for (let index = 0; index < 4; index++) counter.add(1, { source: 'last' });
    expect(storagesPerMeasurement()).toBe(1);
    expect(recording.exports).toEqual([]);

    await telemetry.host.close();
    expect(sums(recording.exports, 'corekit.test.last_adds')).toEqual([4]);
    expect(recording.shutdowns).toBe(1);
    expect(failing.attempts).toBe(1);
    expect(telemetry.logger.withEventId(3013)).toEqual([expect.objectContaining({ level: 'info' })]);
  });
});
