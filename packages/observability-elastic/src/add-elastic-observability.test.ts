import { addOpenTelemetry } from '@corekit/observability';
import {
  describeObservabilityPackConformance,
  startOtlpPlatformReceiver,
} from '@corekit/testing/observability-pack-conformance';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addElasticObservability } from './add-elastic-observability';

const secret = 'VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==';

describeObservabilityPackConformance({
  platform: 'Elastic',
  eventId: 3119,
  section: 'Engine:Observability:Elastic',
  startReceiver: () => startOtlpPlatformReceiver(),
  options: (receiver) => ({ Endpoint: receiver.endpoint, ApiKey: secret, Protocol: 'http/json' as const }),
  register: addElasticObservability,
  addOpenTelemetry,
  secret,
  secretKey: 'ApiKey',
  expectCredentials: (headers) => expect(headers.authorization).toBe(`ApiKey ${secret}`),
  temporality: 'delta',
  misspelled: { key: 'SecretToken', typo: 'SecretTokn', value: 'x' },
});

describe('addElasticObservability', () => {
  it('refuses an API key and a secret token together', () => {
    const { builder } = createTestEngineBuilder();
    expect(() =>
      addElasticObservability(builder, {
        Endpoint: 'https://apm.example:443',
        ApiKey: 'a-key',
        SecretToken: 'a-token',
      }),
    ).toThrow(
      'Engine:Observability:Elastic:ApiKey and Engine:Observability:Elastic:SecretToken are both set',
    );
  });
});
