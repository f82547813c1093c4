import { secretString } from '@corekit/abstractions';
import { endpointField, otlpPackShape } from '@corekit/observability-kit';
import { z } from 'zod';

/** `Engine:Observability:Datadog`: where the host's OTLP goes in Datadog. */
export const datadogObservabilityOptionsSchema = z.object({
  ...otlpPackShape({ protocols: ['http/protobuf'] }),
  /**
   * `Agent` (default): OTLP to the Datadog Agent's OTLP receiver (no key leaves the host).
   * `Agentless`: OTLP straight to Datadog's OTLP intake (`https://otlp.<Site>`) with `dd-api-key`.
   */
  Mode: z.enum(['Agent', 'Agentless']).default('Agent'),
  /**
   * OTLP/HTTP base URL. Default: `http://localhost:4318` in Agent mode, `https://otlp.<Site>` in Agentless
   * mode.
   */
  Endpoint: endpointField().optional(),
  /** The Datadog site (`datadoghq.com`, `datadoghq.eu`, `us3.datadoghq.com`, `ap1.datadoghq.com`...). */
  Site: z
    .string()
    .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'must be a Datadog site host such as datadoghq.eu')
    .default('datadoghq.com'),
  /** API key, sent as `dd-api-key` (Agentless only, where it is required); redacted from every log. */
  ApiKey: secretString().optional(),
});

export type DatadogObservabilityOptions = z.output<typeof datadogObservabilityOptionsSchema>;
export type DatadogObservabilityOptionsInput = z.input<typeof datadogObservabilityOptionsSchema>;
