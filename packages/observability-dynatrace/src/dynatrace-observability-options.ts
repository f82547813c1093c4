import { secretString } from '@corekit/abstractions';
import { endpointField, otlpPackShape } from '@corekit/observability-kit';
import { z } from 'zod';

/** `Engine:Observability:Dynatrace`. */
export const dynatraceObservabilityOptionsSchema = z.object({
  // Dynatrace ingests OTLP/HTTP in binary protobuf only.
  ...otlpPackShape({ protocols: ['http/protobuf'] }),
  /**
   * Required: the environment's OTLP base URL, `https://<environment-id>.live.dynatrace.com/api/v2/otlp`
   * (SaaS) or `https://<activegate>:9999/e/<environment-id>/api/v2/otlp` (ActiveGate).
   */
  Endpoint: endpointField(),
  /**
   * Required: an access token with the ingest scopes (`openTelemetryTrace.ingest`, `metrics.ingest`,
   * `logs.ingest`), sent as `Authorization: Api-Token ...`; redacted from every log.
   */
  ApiToken: secretString(),
});

export type DynatraceObservabilityOptions = z.output<typeof dynatraceObservabilityOptionsSchema>;
export type DynatraceObservabilityOptionsInput = z.input<typeof dynatraceObservabilityOptionsSchema>;
