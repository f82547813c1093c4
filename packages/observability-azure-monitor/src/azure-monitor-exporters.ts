import {
  AzureMonitorLogExporter,
  AzureMonitorMetricExporter,
  AzureMonitorTraceExporter,
  type AzureMonitorExporterOptions,
} from '@azure/monitor-opentelemetry-exporter';
import { readFileSync } from 'node:fs';
import type { PlatformContribution } from '@corekit/observability-kit';
import type { AzureMonitorObservabilityOptions } from './azure-monitor-observability-options';

/**
 * The variable the Azure Monitor exporter reads, when it is constructed, to leave statsbeat off. The
 * exporter has no option for it, so the pack sets it around the constructor call only and restores it.
 */
const statsbeatOffVariable = 'APPLICATION_INSIGHTS_NO_STATSBEAT';

function constructed<T>(settings: AzureMonitorObservabilityOptions, create: () => T): T {
  if (settings.Statsbeat) return create();
  const previous = process.env[statsbeatOffVariable];
  process.env[statsbeatOffVariable] = 'true';
  try {
    return create();
  } finally {
    if (previous === undefined) delete process.env[statsbeatOffVariable];
    else process.env[statsbeatOffVariable] = previous;
  }
}

/** The key/value pairs of a connection string, keys lower-cased. */
export function connectionStringParts(connectionString: string): Record<string, string> {
  return Object.fromEntries(
    connectionString
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part.includes('='))
      .map((part) => {
        const separator = part.indexOf('=');
        return [part.slice(0, separator).trim().toLowerCase(), part.slice(separator + 1).trim()];
      }),
  );
}

/** The Azure Monitor trace, metric and log exporters of the enabled signals, on one connection string. */
export function azureMonitorExporters(settings: AzureMonitorObservabilityOptions): PlatformContribution {
  const options: AzureMonitorExporterOptions = {
    connectionString: settings.ConnectionString,
    disableOfflineStorage: !settings.OfflineStorage,
    ...(settings.StorageDirectory ? { storageDirectory: settings.StorageDirectory } : {}),
    ...(settings.CertificateAuthorityFile
      ? { tlsOptions: { ca: readFileSync(settings.CertificateAuthorityFile, 'utf8') } }
      : {}),
  };
  return {
    ...(settings.Signals.Traces
      ? { spanExporters: () => [constructed(settings, () => new AzureMonitorTraceExporter(options))] }
      : {}),
    ...(settings.Signals.Metrics
      ? { metricExporters: () => [constructed(settings, () => new AzureMonitorMetricExporter(options))] }
      : {}),
    ...(settings.Signals.Logs
      ? { logRecordExporters: () => [constructed(settings, () => new AzureMonitorLogExporter(options))] }
      : {}),
  };
}
