import { secretString } from '@corekit/abstractions';
import { endpointField, otlpPackShape } from '@corekit/observability-kit';
import { z } from 'zod';

/** `Engine:Observability:Elastic`. */
export const elasticObservabilityOptionsSchema = z.object({
  ...otlpPackShape(),
  /**
   * Required: the OTLP/HTTP base URL of the APM Server, the EDOT Collector or the managed OTLP endpoint
   * (`https://<deployment>.apm.<region>.cloud.es.io`).
   */
  Endpoint: endpointField(),
  /** An Elasticsearch API key (the encoded form), sent as `Authorization: ApiKey ...`; redacted from every log. */
  ApiKey: secretString().optional(),
  /** An APM Server secret token, sent as `Authorization: Bearer ...`; redacted. At most one of the two. */
  SecretToken: secretString().optional(),
});

export type ElasticObservabilityOptions = z.output<typeof elasticObservabilityOptionsSchema>;
export type ElasticObservabilityOptionsInput = z.input<typeof elasticObservabilityOptionsSchema>;
