import { addOpenTelemetry } from '@corekit/observability';
import {
  composeObservabilityHost,
  describeObservabilityPackConformance,
  startOtlpPlatformReceiver,
} from '@corekit/testing/observability-pack-conformance';
import { pollUntil } from '@corekit/testing/poll-until';
import { context, propagation, trace } from '@opentelemetry/api';
import { addAwsObservability } from './add-aws-observability';

const secret = 'collector-token-conformance-0123456789';
const lambda = {
  AWS_LAMBDA_FUNCTION_NAME: 'orders-handler',
  AWS_LAMBDA_FUNCTION_VERSION: '7',
  AWS_REGION: 'eu-west-1',
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs20.x',
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
};
const saved: Record<string, string | undefined> = {};

// The Lambda detector reads the variables Lambda sets: this file runs as if inside a function.
beforeAll(() => {
  for (const [name, value] of Object.entries(lambda)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(() => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

describeObservabilityPackConformance({
  platform: 'AWS',
  eventId: 3112,
  section: 'Engine:Observability:Aws',
  startReceiver: () => startOtlpPlatformReceiver(),
  options: (receiver) => ({ Endpoint: receiver.endpoint, Headers: { 'x-collector-token': secret } }),
  register: addAwsObservability,
  addOpenTelemetry,
  secret,
  expectCredentials: (headers) => expect(headers['x-collector-token']).toBe(secret),
  resource: {
    'cloud.provider': 'aws',
    'cloud.platform': 'aws_lambda',
    'cloud.region': 'eu-west-1',
    'faas.name': 'orders-handler',
  },
  misspelled: { key: 'ResourceDetectors', typo: 'ResourceDetector', value: 'Ec2' },
});

describe('addAwsObservability', () => {
  it('makes X-Ray trace ids and propagates them in X-Amzn-Trace-Id', async () => {
    const receiver = await startOtlpPlatformReceiver();
    const { builder } = composeObservabilityHost({
      addOpenTelemetry,
      register: addAwsObservability,
      options: { Endpoint: receiver.endpoint, ResourceDetectors: [] },
      serviceName: 'aws-xray',
    });
    const engine = builder.build();
    await engine.start();
    try {
      const startedAtSeconds = Math.floor(Date.now() / 1000);
      const span = trace.getTracer('xray').startSpan('xray-span');
      const carrier: Record<string, string> = {};
      propagation.inject(trace.setSpan(context.active(), span), carrier);
      span.end();
      const { traceId, spanId } = span.spanContext();
      // An X-Ray trace id starts with the epoch second it was made in, in hex.
      expect(Math.abs(parseInt(traceId.slice(0, 8), 16) - startedAtSeconds)).toBeLessThanOrEqual(1);
      expect(carrier['x-amzn-trace-id']).toBe(
        `Root=1-${traceId.slice(0, 8)}-${traceId.slice(8)};Parent=${spanId};Sampled=1`,
      );
      expect(carrier.traceparent).toBe(`00-${traceId}-${spanId}-01`);
      // The surface names who makes the ids: the pack's generator, not the observability package's own.
      const surface = engine.technologySurfaces().find((item) => item.id === 'observability.opentelemetry');
      expect(surface?.metadata).toMatchObject({ idGenerator: 'AWS' });
      const received = await pollUntil(
        async () => receiver.received().spans,
        (spans) => spans.some((entry) => entry.name === 'xray-span'),
        { timeoutMs: 15_000 },
      );
      expect(received.find((entry) => entry.name === 'xray-span')?.traceId).toBe(traceId);
    } finally {
      await engine.stop();
      await receiver.close();
    }
  });
});
