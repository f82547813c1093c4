import { existsSync } from 'node:fs';
import { defineObservabilityPack, type ObservabilityPackFunction } from '@corekit/observability-kit';
import { azureMonitorExporters, connectionStringParts } from './azure-monitor-exporters';
import {
  azureMonitorObservabilityOptionsSchema,
  type AzureMonitorObservabilityOptions,
  type AzureMonitorObservabilityOptionsInput,
} from './azure-monitor-observability-options';

/** The spec's event id of the Azure Monitor pack (runtime-operations 6). */
export const azureMonitorObservabilityEventId = 3111;

const instrumentationKeyPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sends the host's traces, metrics and logs to Azure Monitor / Application Insights
 * (`Engine:Observability:AzureMonitor`) with Microsoft's Azure Monitor OpenTelemetry exporters, which map
 * spans to requests and dependencies and post them to the resource's ingestion endpoint. Needs
 * `addOpenTelemetry(builder)` from `@corekit/observability`.
 */
export const addAzureMonitorObservability: ObservabilityPackFunction<
  AzureMonitorObservabilityOptions,
  AzureMonitorObservabilityOptionsInput
> = defineObservabilityPack({
  id: azureMonitorObservabilityEventId,
  packageName: '@corekit/observability-azure-monitor',
  platform: 'Azure Monitor',
  entry: 'addAzureMonitorObservability',
  section: 'Engine:Observability:AzureMonitor',
  schema: azureMonitorObservabilityOptionsSchema,
  secrets: (settings) => [connectionStringParts(settings.ConnectionString).instrumentationkey ?? ''],
  check: (settings, path) => {
    const parts = connectionStringParts(settings.ConnectionString);
    const problems: string[] = [];
    if (!instrumentationKeyPattern.test(parts.instrumentationkey ?? ''))
      problems.push(`${path}:ConnectionString must carry InstrumentationKey=<GUID> (value not shown)`);
    if (parts.ingestionendpoint !== undefined && !/^https?:\/\/[^\s;]+$/i.test(parts.ingestionendpoint))
      problems.push(`${path}:ConnectionString has an IngestionEndpoint that is not an http(s) URL`);
    if (settings.CertificateAuthorityFile && !existsSync(settings.CertificateAuthorityFile))
      problems.push(`${path}:CertificateAuthorityFile names a file that does not exist`);
    return problems;
  },
  contribution: azureMonitorExporters,
});
