import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addOpenTelemetry } from '@corekit/observability';
import {
  composeObservabilityHost,
  describeObservabilityPackConformance,
} from '@corekit/testing/observability-pack-conformance';
import { pollUntil } from '@corekit/testing/poll-until';
import {
  startAzureMonitorIngestion,
  type AzureMonitorIngestion,
} from '@corekit/testing/servers/azure-monitor-ingestion';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addAzureMonitorObservability } from './add-azure-monitor-observability';

const instrumentationKey = '3f0a9c1e-5b7d-4e2a-9c8f-1d2e3f4a5b6c';

/** Options pointing the pack at `ingestion`, trusting its test CA (written to a file of this test's own). */
function optionsFor(ingestion: AzureMonitorIngestion) {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-azure-monitor-'));
  const certificateAuthorityFile = path.join(directory, 'ca.pem');
  writeFileSync(certificateAuthorityFile, ingestion.certificateAuthority);
  return {
    ConnectionString: ingestion.connectionString(instrumentationKey),
    OfflineStorage: false,
    CertificateAuthorityFile: certificateAuthorityFile,
  };
}

describeObservabilityPackConformance<ReturnType<typeof optionsFor>, AzureMonitorIngestion>({
  platform: 'Azure Monitor',
  eventId: 3111,
  section: 'Engine:Observability:AzureMonitor',
  startReceiver: startAzureMonitorIngestion,
  options: optionsFor,
  register: addAzureMonitorObservability,
  addOpenTelemetry,
  secret: instrumentationKey,
  secretKey: 'ConnectionString',
  // The track API authenticates by the instrumentation key inside each envelope, not by a header.
  expectCredentials: (headers) => expect(headers['content-type']).toMatch(/^application\/json/),
  // 401, 403, 408, 429, 5xx are kept for a retry (in offline storage when on); 400 is a final refusal.
  failureStatus: 400,
  misspelled: { key: 'OfflineStorage', typo: 'OfflineStorge', value: false },
});

describe('addAzureMonitorObservability', () => {
  it('stamps every envelope with the instrumentation key and the service as cloud role', async () => {
    const ingestion = await startAzureMonitorIngestion();
    const { builder } = composeObservabilityHost({
      addOpenTelemetry,
      register: addAzureMonitorObservability,
      options: optionsFor(ingestion),
      serviceName: 'azure-envelopes',
    });
    const engine = builder.build();
    await engine.start();
    try {
      const { trace } = await import('@opentelemetry/api');
      trace.getTracer('azure').startSpan('azure-span').end();
      const envelopes = await pollUntil(
        async () => ingestion.envelopes,
        (seen) => seen.some((envelope) => envelope.data?.baseData?.name === 'azure-span'),
        { timeoutMs: 15_000 },
      );
      const span = envelopes.find((envelope) => envelope.data?.baseData?.name === 'azure-span')!;
      expect(span.iKey).toBe(instrumentationKey);
      expect(span.name).toBe('Microsoft.ApplicationInsights.RemoteDependency');
      expect(span.tags?.['ai.cloud.role']).toBe('azure-envelopes');
      expect(ingestion.rejected).toEqual([]);
    } finally {
      await engine.stop();
      await ingestion.close();
    }
  });

  it('refuses a connection string without an instrumentation key, without echoing it', () => {
    const { builder } = createTestEngineBuilder();
    expect(() =>
      addAzureMonitorObservability(builder, {
        ConnectionString: 'IngestionEndpoint=https://westeurope-5.in.example/',
      }),
    ).toThrow(
      /Engine:Observability:AzureMonitor:ConnectionString must carry InstrumentationKey=<GUID> \(value not shown\)$/m,
    );
  });
});
