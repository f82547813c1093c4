import { secretString } from '@corekit/abstractions';
import { enabledField, signalsField } from '@corekit/observability-kit';
import { z } from 'zod';

/** `Engine:Observability:AzureMonitor`. */
export const azureMonitorObservabilityOptionsSchema = z.object({
  /** Default true. */
  Enabled: enabledField(),
  /**
   * Required: the Application Insights resource's connection string
   * (`InstrumentationKey=...;IngestionEndpoint=https://<region>.in.applicationinsights.azure.com/;...`).
   * Secret: it and its instrumentation key are redacted from every log.
   */
  ConnectionString: secretString(),
  Signals: signalsField(),
  /**
   * Keep telemetry that could not be sent on disk and send it later (the exporter's offline storage).
   * Default true; the folder is `StorageDirectory`.
   */
  OfflineStorage: z.boolean().default(true),
  /**
   * A PEM file of the certificate authorities to trust for the ingestion endpoint instead of the system's
   * (a private-link proxy that re-signs TLS). Default: the system's trusted authorities.
   */
  CertificateAuthorityFile: z.string().min(1).optional(),
  /** Folder of the offline storage. Default: the exporter's own, under the system temporary folder. */
  StorageDirectory: z.string().min(1).optional(),
  /**
   * Let the exporter send its own usage statistics ("statsbeat") to Microsoft's statsbeat endpoints, which
   * are not the resource's ingestion endpoint. Default false: only the host's telemetry leaves the host.
   */
  Statsbeat: z.boolean().default(false),
});

export type AzureMonitorObservabilityOptions = z.output<typeof azureMonitorObservabilityOptionsSchema>;
export type AzureMonitorObservabilityOptionsInput = z.input<typeof azureMonitorObservabilityOptionsSchema>;
