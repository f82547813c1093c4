import { secretString } from '@corekit/abstractions';
import { endpointField, otlpPackShape } from '@corekit/observability-kit';
import { z } from 'zod';

/** New Relic's OTLP endpoints by data center. */
export const newRelicEndpoints = {
  US: 'https://otlp.nr-data.net',
  EU: 'https://otlp.eu01.nr-data.net',
  FedRAMP: 'https://gov-otlp.nr-data.net',
} as const;

/** `Engine:Observability:NewRelic`. */
export const newRelicObservabilityOptionsSchema = z.object({
  ...otlpPackShape(),
  /** The account's data center (`US` default, `EU`, `FedRAMP`): picks the endpoint. */
  Region: z.enum(['US', 'EU', 'FedRAMP']).default('US'),
  /** OTLP/HTTP base URL. Default: the `Region`'s New Relic endpoint. */
  Endpoint: endpointField().optional(),
  /** Required: the ingest license key, sent as `api-key`; redacted from every log. */
  LicenseKey: secretString(),
});

export type NewRelicObservabilityOptions = z.output<typeof newRelicObservabilityOptionsSchema>;
export type NewRelicObservabilityOptionsInput = z.input<typeof newRelicObservabilityOptionsSchema>;
