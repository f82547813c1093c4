import { addOpenTelemetry } from '@corekit/observability';
import { startOtlpReceiver } from '@corekit/testing/fakes/otlp/otlp-receiver';
import {
  composeObservabilityHost,
  describeObservabilityPackConformance,
  startOtlpPlatformReceiver,
} from '@corekit/testing/observability-pack-conformance';
import { pollUntil } from '@corekit/testing/poll-until';
import { metrics, trace } from '@opentelemetry/api';
import { addHoneycombObservability } from './add-honeycomb-observability';

const secret = 'hcaik_conformance0123456789abcdefghijklmnop';

describeObservabilityPackConformance({
  platform: 'Honeycomb',
  eventId: 3116,
  section: 'Engine:Observability:Honeycomb',
  startReceiver: () => startOtlpPlatformReceiver(),
  options: (receiver) => ({ Endpoint: receiver.endpoint, ApiKey: secret, MetricsDataset: 'host-metrics' }),
  register: addHoneycombObservability,
  addOpenTelemetry,
  secret,
  secretKey: 'ApiKey',
  expectCredentials: (headers) => expect(headers['x-honeycomb-team']).toBe(secret),
  temporality: 'cumulative',
  misspelled: { key: 'MetricsDataset', typo: 'MetricDataset', value: 'x' },
});

describe('addHoneycombObservability', () => {
  it('names the metrics dataset on metric exports only', async () => {
    const receiver = await startOtlpReceiver();
    const { builder } = composeObservabilityHost({
      addOpenTelemetry,
      register: addHoneycombObservability,
      options: { Endpoint: receiver.url, ApiKey: secret, MetricsDataset: 'host-metrics' },
      serviceName: 'honeycomb-dataset',
    });
    const engine = builder.build();
    await engine.start();
    try {
      trace.getTracer('dataset').startSpan('dataset-span').end();
      metrics.getMeter('dataset').createCounter('dataset.count').add(1);
      const exports = await pollUntil(
        async () => receiver.exports,
        (seen) =>
          seen.some((entry) => entry.signal === 'traces') && seen.some((entry) => entry.signal === 'metrics'),
        { timeoutMs: 15_000 },
      );
      // Logs arrive too (the engine's own records), without the dataset header like traces.
      expect(exports.map((entry) => entry.signal)).toEqual(expect.arrayContaining(['traces', 'metrics']));
      for (const entry of exports)
        expect(entry.headers['x-honeycomb-dataset']).toBe(
          entry.signal === 'metrics' ? 'host-metrics' : undefined,
        );
    } finally {
      await engine.stop();
      await receiver.close();
    }
  });
});
