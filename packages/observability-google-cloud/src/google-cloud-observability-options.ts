import { secretString } from '@corekit/abstractions';
import { endpointField, otlpPackShape } from '@corekit/observability-kit';
import { z } from 'zod';

/** `Engine:Observability:GoogleCloud`. */
export const googleCloudObservabilityOptionsSchema = z.object({
  ...otlpPackShape({ protocols: ['http/protobuf'] }),
  /** OTLP/HTTP base URL of Google's Telemetry API (Cloud Trace, Monitoring, Logging). */
  Endpoint: endpointField('https://telemetry.googleapis.com'),
  /** Required: the project that receives the telemetry (`gcp.project_id`, and the quota project). */
  ProjectId: z
    .string()
    .regex(
      /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/,
      'must be a Google Cloud project id (6-30 lower-case letters, digits, -)',
    ),
  /**
   * A service account's email. With `ServiceAccountPrivateKey`, requests carry a self-signed JWT made from
   * the key (no token exchange). Without both, Application Default Credentials are used
   * (`GOOGLE_APPLICATION_CREDENTIALS`, or the metadata server on Google Cloud).
   */
  ServiceAccountEmail: z.string().email().optional(),
  /** The service account's PEM private key; redacted from every log. */
  ServiceAccountPrivateKey: secretString().optional(),
  /**
   * Run the GCP resource detector (`cloud.provider: gcp`, GCE, GKE, Cloud Run, Cloud Functions, App Engine
   * attributes) from the metadata server. Default true. Off Google Cloud it pings the metadata server once;
   * `METADATA_SERVER_DETECTION=none` or false here skips that.
   */
  ResourceDetection: z.boolean().default(true),
});

export type GoogleCloudObservabilityOptions = z.output<typeof googleCloudObservabilityOptionsSchema>;
export type GoogleCloudObservabilityOptionsInput = z.input<typeof googleCloudObservabilityOptionsSchema>;
