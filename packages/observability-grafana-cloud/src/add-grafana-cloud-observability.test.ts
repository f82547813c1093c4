import { addOpenTelemetry } from '@corekit/observability';
import { basicCredentialsOf } from '@corekit/testing/http-fake-server';
import {
  describeObservabilityPackConformance,
  startOtlpPlatformReceiver,
} from '@corekit/testing/observability-pack-conformance';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addGrafanaCloudObservability, grafanaCloudEndpoint } from './add-grafana-cloud-observability';
import { grafanaCloudObservabilityOptionsSchema } from './grafana-cloud-observability-options';

const secret = 'glc_conformanceTokenValue0123456789abcdefghij';

describeObservabilityPackConformance({
  platform: 'Grafana Cloud',
  eventId: 3117,
  section: 'Engine:Observability:GrafanaCloud',
  startReceiver: () => startOtlpPlatformReceiver({ prefix: '/otlp' }),
  options: (receiver) => ({ Endpoint: receiver.endpoint, InstanceId: '123456', Token: secret }),
  register: addGrafanaCloudObservability,
  addOpenTelemetry,
  secret,
  secretKey: 'Token',
  expectCredentials: (headers) => {
    const credentials = basicCredentialsOf({ headers } as Parameters<typeof basicCredentialsOf>[0]);
    expect(credentials).toEqual({ username: '123456', password: secret });
  },
  temporality: 'cumulative',
  misspelled: { key: 'InstanceId', typo: 'InstanceID2', value: '1' },
});

describe('addGrafanaCloudObservability', () => {
  it('derives the OTLP gateway from the zone', () => {
    const settings = grafanaCloudObservabilityOptionsSchema.parse({
      Zone: 'prod-eu-west-2',
      InstanceId: '1',
      Token: 't',
    });
    expect(grafanaCloudEndpoint(settings)).toBe('https://otlp-gateway-prod-eu-west-2.grafana.net/otlp');
  });

  it('refuses a section with neither Zone nor Endpoint', () => {
    const { builder } = createTestEngineBuilder();
    expect(() => addGrafanaCloudObservability(builder, { InstanceId: '1', Token: 'token-value' })).toThrow(
      'Engine:Observability:GrafanaCloud:Zone or Engine:Observability:GrafanaCloud:Endpoint is required',
    );
  });
});
