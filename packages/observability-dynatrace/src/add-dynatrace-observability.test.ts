import { addOpenTelemetry } from '@corekit/observability';
import {
  describeObservabilityPackConformance,
  startOtlpPlatformReceiver,
} from '@corekit/testing/observability-pack-conformance';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addDynatraceObservability } from './add-dynatrace-observability';

const secret = 'dt0c01.CONFORMANCE.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

describeObservabilityPackConformance({
  platform: 'Dynatrace',
  eventId: 3154,
  section: 'Engine:Observability:Dynatrace',
  startReceiver: () => startOtlpPlatformReceiver({ prefix: '/api/v2/otlp' }),
  options: (receiver) => ({ Endpoint: receiver.endpoint, ApiToken: secret }),
  register: addDynatraceObservability,
  addOpenTelemetry,
  secret,
  secretKey: 'ApiToken',
  expectCredentials: (headers) => {
    expect(headers.authorization).toBe(`Api-Token ${secret}`);
    expect(headers['content-type']).toBe('application/x-protobuf');
  },
  temporality: 'delta',
  misspelled: { key: 'ApiToken', typo: 'ApiTokens', value: 'x' },
});

describe('addDynatraceObservability', () => {
  it('refuses the JSON encoding, which Dynatrace does not ingest', () => {
    const { builder } = createTestEngineBuilder();
    expect(() =>
      addDynatraceObservability(builder, {
        Endpoint: 'https://abc12345.live.dynatrace.com/api/v2/otlp',
        ApiToken: 'token-value',
        Protocol: 'http/json' as never,
      }),
    ).toThrow('Engine:Observability:Dynatrace:Protocol');
  });
});
