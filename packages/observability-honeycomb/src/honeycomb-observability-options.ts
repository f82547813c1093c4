import { secretString } from '@corekit/abstractions';
import { endpointField, otlpPackShape } from '@corekit/observability-kit';
import { z } from 'zod';

/** Honeycomb's API hosts by region. */
export const honeycombEndpoints = {
  US: 'https://api.honeycomb.io',
  EU: 'https://api.eu1.honeycomb.io',
} as const;

/** `Engine:Observability:Honeycomb`. */
export const honeycombObservabilityOptionsSchema = z.object({
  ...otlpPackShape(),
  /** The team's region (`US` default, `EU`): picks the endpoint. */
  Region: z.enum(['US', 'EU']).default('US'),
  /** OTLP/HTTP base URL. Default: the `Region`'s Honeycomb API host. */
  Endpoint: endpointField().optional(),
  /** Required: the ingest API key, sent as `x-honeycomb-team`; redacted from every log. */
  ApiKey: secretString(),
  /**
   * Dataset of the metrics (`x-honeycomb-dataset` on metric exports; Honeycomb names trace datasets after
   * `service.name`). Default `corekit-metrics`.
   */
  MetricsDataset: z
    .string()
    .regex(/^[A-Za-z0-9._ -]{1,255}$/, 'must be a dataset name (letters, digits, . _ - and spaces)')
    .default('corekit-metrics'),
});

export type HoneycombObservabilityOptions = z.output<typeof honeycombObservabilityOptionsSchema>;
export type HoneycombObservabilityOptionsInput = z.input<typeof honeycombObservabilityOptionsSchema>;
