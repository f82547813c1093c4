import { addOpenTelemetry } from '@corekit/observability';
import {
  describeObservabilityPackConformance,
  startOtlpPlatformReceiver,
} from '@corekit/testing/observability-pack-conformance';
import { addNewRelicObservability } from './add-new-relic-observability';
import { newRelicEndpoints } from './new-relic-observability-options';

const secret = 'eu01xxconformancelicensekey0123456789NRAL';

describeObservabilityPackConformance({
  platform: 'New Relic',
  eventId: 3115,
  section: 'Engine:Observability:NewRelic',
  startReceiver: () => startOtlpPlatformReceiver(),
  options: (receiver) => ({ Endpoint: receiver.endpoint, LicenseKey: secret }),
  register: addNewRelicObservability,
  addOpenTelemetry,
  secret,
  secretKey: 'LicenseKey',
  expectCredentials: (headers) => expect(headers['api-key']).toBe(secret),
  temporality: 'delta',
  misspelled: { key: 'LicenseKey', typo: 'LicenceKey', value: 'x' },
});

describe('New Relic endpoints', () => {
  it('names one OTLP endpoint per data center', () => {
    expect(newRelicEndpoints).toEqual({
      US: 'https://otlp.nr-data.net',
      EU: 'https://otlp.eu01.nr-data.net',
      FedRAMP: 'https://gov-otlp.nr-data.net',
    });
  });
});
