import {
  defineObservabilityPack,
  type ObservabilityPackFunction,
  otlpPlatformExporters,
} from '@corekit/observability-kit';
import { gcpDetector } from '@opentelemetry/resource-detector-gcp';
import { googleCloudAuthorization } from './google-cloud-credentials';
import {
  googleCloudObservabilityOptionsSchema,
  type GoogleCloudObservabilityOptions,
  type GoogleCloudObservabilityOptionsInput,
} from './google-cloud-observability-options';

/** The spec's event id of the Google Cloud pack (runtime-operations 6). */
export const googleCloudObservabilityEventId = 3113;

/**
 * Sends the host's traces, metrics and logs to Google Cloud (`Engine:Observability:GoogleCloud`) over
 * OTLP/HTTP to the Telemetry API, authorized by `google-auth-library` with `x-goog-user-project`, with the
 * `gcp.project_id` resource attribute the API requires and the GCP resource detector. (Google's Cloud
 * Trace and Cloud Monitoring exporters for Node.js were archived on 2026-10-30 in favour of this path.)
 * Needs `addOpenTelemetry(builder)` from `@corekit/observability`.
 */
export const addGoogleCloudObservability: ObservabilityPackFunction<
  GoogleCloudObservabilityOptions,
  GoogleCloudObservabilityOptionsInput
> = defineObservabilityPack({
  id: googleCloudObservabilityEventId,
  packageName: '@corekit/observability-google-cloud',
  platform: 'Google Cloud',
  entry: 'addGoogleCloudObservability',
  section: 'Engine:Observability:GoogleCloud',
  schema: googleCloudObservabilityOptionsSchema,
  check: (settings, path) =>
    Boolean(settings.ServiceAccountEmail) === Boolean(settings.ServiceAccountPrivateKey)
      ? []
      : [`${path}:ServiceAccountEmail and ${path}:ServiceAccountPrivateKey go together; set both or neither`],
  contribution: (settings) => ({
    resourceAttributes: { 'gcp.project_id': settings.ProjectId },
    ...(settings.ResourceDetection ? { resourceDetectors: () => [gcpDetector] } : {}),
    ...otlpPlatformExporters(settings, {
      headers: { 'x-goog-user-project': settings.ProjectId },
      dynamicHeaders: googleCloudAuthorization(settings),
    }),
  }),
});
