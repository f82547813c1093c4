import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricReader,
} from '@opentelemetry/sdk-metrics';
import { counterCardinalityLimit, CounterTotals } from './counter-totals';
import { EngineMeter } from './engine-meter';

function observed(totals: CounterTotals) {
  const points: Array<{ value: number; attributes: Record<string, unknown> }> = [];
  totals.observe({ observe: (value, attributes = {}) => points.push({ value, attributes }) });
  return points;
}

async function collectSums(reader: MetricReader, name: string) {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((candidate) => candidate.descriptor.name === name);
  if (!metric) return undefined;
  expect(metric.dataPointType).toBe(DataPointType.SUM);
  return metric.dataPoints.map((point) => ({ value: point.value, attributes: point.attributes }));
}

describe('CounterTotals', () => {
  it('sums per attribute set, whatever order the keys come in, and keeps value types apart', () => {
    const totals = new CounterTotals();
    totals.add(1, { lane: 'direct', outcome: 'completed' });
    totals.add(2, { outcome: 'completed', lane: 'direct' });
    totals.add(1, { code: 1 });
    totals.add(1, { code: '1' });
    totals.add(5);
    expect(observed(totals)).toEqual(
      expect.arrayContaining([
        { value: 3, attributes: { lane: 'direct', outcome: 'completed' } },
        { value: 1, attributes: { code: 1 } },
        { value: 1, attributes: { code: '1' } },
        { value: 5, attributes: {} },
      ]),
    );
    expect(observed(totals)).toHaveLength(4);
  });

  it('ignores what a counter cannot count, as the SDK does', () => {
    const totals = new CounterTotals();
    for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY]) totals.add(value, { kind: 'bad' });
    totals.add(0, { kind: 'zero' });
    expect(observed(totals)).toEqual([{ value: 0, attributes: { kind: 'zero' } }]);
  });

  it('counts attribute sets past the cardinality limit under otel.metric.overflow', () => {
    const totals = new CounterTotals();
    for (let index = 0; index < counterCardinalityLimit + 10; index++) totals.add(1, { id: index });
    const points = observed(totals);
    expect(points).toHaveLength(counterCardinalityLimit + 1);
    expect(points).toContainEqual({ value: 10, attributes: { 'otel.metric.overflow': true } });
  });

  it('does not keep the caller’s attribute object (a later change to it is not counted)', () => {
    const totals = new CounterTotals();
    const attributes: Record<string, string> = { lane: 'direct' };
    totals.add(1, attributes);
    attributes.lane = 'outbox';
    expect(observed(totals)).toEqual([{ value: 1, attributes: { lane: 'direct' } }]);
  });
});

describe('EngineMeter counters', () => {
  afterEach(() => metrics.disable());

  it('report cumulative totals to a cumulative reader and deltas to a delta reader', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
    const delta = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const cumulative = new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
      exportIntervalMillis: 3_600_000,
    });
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [delta, cumulative] }));
    const counter = new EngineMeter().counter('corekit.test.requests', 'requests by outcome');
    counter.add(1, { outcome: 'ok' });
    counter.add(2, { outcome: 'ok' });
    expect(await collectSums(cumulative, 'corekit.test.requests')).toEqual([
      { value: 3, attributes: { outcome: 'ok' } },
    ]);
    expect(await collectSums(delta, 'corekit.test.requests')).toEqual([
      { value: 3, attributes: { outcome: 'ok' } },
    ]);
    counter.add(4, { outcome: 'ok' });
    expect(await collectSums(cumulative, 'corekit.test.requests')).toEqual([
      { value: 7, attributes: { outcome: 'ok' } },
    ]);
    expect(await collectSums(delta, 'corekit.test.requests')).toEqual([
      { value: 4, attributes: { outcome: 'ok' } },
    ]);
  });

  it('follow a meter provider registered after the counter was made', async () => {
    const counter = new EngineMeter().counter('corekit.test.late', 'counted before and after the SDK');
    counter.add(1);
    const reader = new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
      exportIntervalMillis: 3_600_000,
    });
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    counter.add(1);
    expect(await collectSums(reader, 'corekit.test.late')).toEqual([{ value: 2, attributes: {} }]);
  });
});
