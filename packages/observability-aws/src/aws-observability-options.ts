import { endpointField, otlpPackShape } from '@corekit/observability-kit';
import { z } from 'zod';

/** The AWS resource detectors the pack can run (from `@opentelemetry/resource-detector-aws`). */
export const awsResourceDetectorNames = ['Lambda', 'Ecs', 'Eks', 'Beanstalk', 'Ec2'] as const;
export type AwsResourceDetectorName = (typeof awsResourceDetectorNames)[number];

/** `Engine:Observability:Aws`. */
export const awsObservabilityOptionsSchema = z.object({
  ...otlpPackShape(),
  /**
   * OTLP/HTTP base URL of the AWS Distro for OpenTelemetry collector or the CloudWatch agent beside the
   * host, which sign and forward to X-Ray and CloudWatch. Default `http://localhost:4318`.
   */
  Endpoint: endpointField('http://localhost:4318'),
  /** Generate X-Ray compatible trace ids (the first 8 hex digits are the start time). Default true. */
  XRayIdGenerator: z.boolean().default(true),
  /** Inject and extract the `X-Amzn-Trace-Id` header besides W3C trace context. Default true. */
  XRayPropagation: z.boolean().default(true),
  /**
   * Resource detectors to run at start. Default `Lambda`, `Ecs`, `Eks`, `Beanstalk`: each reads only the
   * environment, local files or the ECS task metadata URL the platform sets, and adds nothing elsewhere.
   * `Ec2` is opt-in: it queries the instance metadata service at 169.254.169.254 (waiting up to its 5 s timeout when
   * not on EC2).
   */
  ResourceDetectors: z
    .array(z.enum(awsResourceDetectorNames))
    .max(awsResourceDetectorNames.length)
    .default(['Lambda', 'Ecs', 'Eks', 'Beanstalk']),
});

export type AwsObservabilityOptions = z.output<typeof awsObservabilityOptionsSchema>;
export type AwsObservabilityOptionsInput = z.input<typeof awsObservabilityOptionsSchema>;
