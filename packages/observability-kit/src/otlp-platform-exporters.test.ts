import { startOtlpReceiver, type OtlpReceiver } from '@corekit/testing/fakes/otlp/otlp-receiver';
import { pollUntil } from '@corekit/testing/poll-until';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { endpointField, otlpPackShape, type OtlpPackSettings } from './observability-pack-options';
import { otlpPlatformExporters, otlpSignalUrl } from './otlp-platform-exporters';

const resource = resourceFromAttributes({ 'service.name': 'kit-test' });
const schema = z.object({ ...otlpPackShape(), Endpoint: endpointField() });

function settings(receiver: OtlpReceiver, extra: Record<string, unknown> = {}): OtlpPackSettings {
  return schema.parse({ Endpoint: receiver.url, ...extra });
}

/** Exports one span and one counter point through the exporters the kit builds for `wiring`. */
async function exportThrough(
  contribution: ReturnType<typeof otlpPlatformExporters>,
): Promise<{ shutdown: () => Promise<void> }> {
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: contribution.spanExporters!().map((exporter) => new SimpleSpanProcessor(exporter)),
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: contribution.metricExporters!().map(
      (exporter) => new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 100 }),
    ),
  });
  tracerProvider
    .getTracer('kit')
    .startSpan('kit-span', { attributes: { 'kit.case': 1 } })
    .end();
  meterProvider.getMeter('kit').createCounter('kit.count').add(2, { side: 'left' });
  return {
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

describe('otlpPlatformExporters', () => {
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    receiver = await startOtlpReceiver({ prefix: '/otlp' });
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('appends the signal path to the base endpoint, with or without a trailing slash', () => {
    expect(otlpSignalUrl('https://gateway.example/otlp/', 'traces')).toBe(
      'https://gateway.example/otlp/v1/traces',
    );
    expect(otlpSignalUrl('http://localhost:4318', 'metrics')).toBe('http://localhost:4318/v1/metrics');
  });

  it.each(['http/protobuf', 'http/json'] as const)(
    'sends %s with the platform headers over the section headers and the platform temporality',
    async (protocol) => {
      const exporters = otlpPlatformExporters(
        settings(receiver, { Protocol: protocol, Headers: { 'x-route': 'blue', 'api-key': 'section' } }),
        {
          headers: { 'api-key': 'platform-key' },
          signalHeaders: { metrics: { 'x-dataset': 'metrics-set' } },
          metricTemporality: 'delta',
        },
      );
      const running = await exportThrough(exporters);
      try {
        await pollUntil(
          async () => receiver,
          (seen) => seen.spans.length > 0 && seen.metrics.some((metric) => metric.name === 'kit.count'),
          { timeoutMs: 10_000 },
        );
        const traces = receiver.exports.find((entry) => entry.signal === 'traces')!;
        expect(traces.transport).toBe(protocol);
        expect(traces.path).toBe('/otlp/v1/traces');
        expect(traces.headers['api-key']).toBe('platform-key');
        expect(traces.headers['x-route']).toBe('blue');
        expect(traces.headers['x-dataset']).toBeUndefined();
        expect(receiver.spans).toEqual([
          expect.objectContaining({
            name: 'kit-span',
            attributes: { 'kit.case': 1 },
            resource: expect.objectContaining({ 'service.name': 'kit-test' }),
          }),
        ]);
        expect(receiver.spans[0]!.traceId).toMatch(/^[0-9a-f]{32}$/);
        const metrics = receiver.exports.find((entry) => entry.signal === 'metrics')!;
        expect(metrics.headers['x-dataset']).toBe('metrics-set');
        expect(receiver.metrics).toContainEqual(
          expect.objectContaining({
            name: 'kit.count',
            type: 'sum',
            temporality: 'delta',
            monotonic: true,
            dataPoints: [{ attributes: { side: 'left' }, value: 2 }],
          }),
        );
      } finally {
        await running.shutdown();
      }
    },
  );

  it('computes dynamic headers for every request, over the static ones', async () => {
    let issued = 0;
    const exporters = otlpPlatformExporters(settings(receiver), {
      headers: { authorization: 'static' },
      dynamicHeaders: async () => ({ authorization: `Bearer token-${++issued}` }),
    });
    const running = await exportThrough(exporters);
    try {
      const seen = await pollUntil(
        async () => receiver.exports.filter((entry) => entry.signal === 'metrics'),
        (all) => all.length >= 2,
        { timeoutMs: 10_000 },
      );
      expect(seen[0]!.headers.authorization).toMatch(/^Bearer token-\d+$/);
      expect(seen[1]!.headers.authorization).not.toBe(seen[0]!.headers.authorization);
    } finally {
      await running.shutdown();
    }
  });

  it('builds only the exporters of the enabled signals', () => {
    const exporters = otlpPlatformExporters(
      settings(receiver, { Signals: { Traces: true, Metrics: false, Logs: false } }),
    );
    expect(Object.keys(exporters)).toEqual(['spanExporters']);
  });

  it('refuses a Headers entry that would override a credential header', () => {
    const result = schema.safeParse({ Endpoint: receiver.url, Headers: { Authorization: 'x' } });
    expect(result.success).toBe(false);
  });
});
