import { addOpenTelemetry } from '@corekit/observability';
import {
  describeObservabilityPackConformance,
  startOtlpPlatformReceiver,
} from '@corekit/testing/observability-pack-conformance';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addDatadogObservability, datadogEndpoint } from './add-datadog-observability';
import { datadogObservabilityOptionsSchema } from './datadog-observability-options';

const secret = 'dd-conformance-api-key-0123456789abcdef';

describeObservabilityPackConformance({
  platform: 'Datadog',
  eventId: 3114,
  section: 'Engine:Observability:Datadog',
  startReceiver: () => startOtlpPlatformReceiver(),
  options: (receiver) => ({ Mode: 'Agentless' as const, Endpoint: receiver.endpoint, ApiKey: secret }),
  register: addDatadogObservability,
  addOpenTelemetry,
  secret,
  secretKey: 'ApiKey',
  expectCredentials: (headers) => {
    expect(headers['dd-api-key']).toBe(secret);
    expect(headers['dd-protocol']).toBe('otlp');
  },
  temporality: 'delta',
  misspelled: { key: 'ApiKey', typo: 'ApiKye', value: 'x' },
});

describe('addDatadogObservability', () => {
  it('sends to the local Agent by default and to the site intake agentless', () => {
    expect(datadogEndpoint(datadogObservabilityOptionsSchema.parse({}))).toBe('http://localhost:4318');
    expect(
      datadogEndpoint(
        datadogObservabilityOptionsSchema.parse({ Mode: 'Agentless', Site: 'datadoghq.eu', ApiKey: 'k' }),
      ),
    ).toBe('https://otlp.datadoghq.eu');
  });

  it('refuses Agentless without an API key, naming the key path', () => {
    const { builder } = createTestEngineBuilder();
    expect(() => addDatadogObservability(builder, { Mode: 'Agentless' })).toThrow(
      'Engine:Observability:Datadog:ApiKey is required when Engine:Observability:Datadog:Mode is Agentless',
    );
  });
});
