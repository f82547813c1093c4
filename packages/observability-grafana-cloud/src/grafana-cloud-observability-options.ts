import { secretString } from '@corekit/abstractions';
import { endpointField, otlpPackShape } from '@corekit/observability-kit';
import { z } from 'zod';

/** `Engine:Observability:GrafanaCloud`. */
export const grafanaCloudObservabilityOptionsSchema = z.object({
  ...otlpPackShape(),
  /**
   * The stack's zone as the Grafana Cloud portal shows it (`prod-eu-west-2`): the endpoint becomes
   * `https://otlp-gateway-<Zone>.grafana.net/otlp`. One of `Zone` or `Endpoint` is required.
   */
  Zone: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a zone such as prod-eu-west-2')
    .optional(),
  /** OTLP/HTTP base URL of the stack's OTLP gateway (overrides `Zone`). */
  Endpoint: endpointField().optional(),
  /** Required: the stack's instance id (digits), the basic-auth user name. */
  InstanceId: z.string().regex(/^[0-9]{1,20}$/, 'must be the numeric instance id of the stack'),
  /** Required: an access policy token with write scopes, the basic-auth password; redacted from every log. */
  Token: secretString(),
});

export type GrafanaCloudObservabilityOptions = z.output<typeof grafanaCloudObservabilityOptionsSchema>;
export type GrafanaCloudObservabilityOptionsInput = z.input<typeof grafanaCloudObservabilityOptionsSchema>;
