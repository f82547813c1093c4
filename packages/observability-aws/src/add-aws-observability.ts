import {
  defineObservabilityPack,
  type ObservabilityPackFunction,
  otlpPlatformExporters,
} from '@corekit/observability-kit';
import { AWSXRayIdGenerator } from '@opentelemetry/id-generator-aws-xray';
import { AWSXRayPropagator } from '@opentelemetry/propagator-aws-xray';
import {
  awsBeanstalkDetector,
  awsEc2Detector,
  awsEcsDetector,
  awsEksDetector,
  awsLambdaDetector,
} from '@opentelemetry/resource-detector-aws';
import {
  awsObservabilityOptionsSchema,
  type AwsObservabilityOptions,
  type AwsObservabilityOptionsInput,
  type AwsResourceDetectorName,
} from './aws-observability-options';

/** The spec's event id of the AWS pack (runtime-operations 6). */
export const awsObservabilityEventId = 3112;

const detectors = {
  Lambda: awsLambdaDetector,
  Ecs: awsEcsDetector,
  Eks: awsEksDetector,
  Beanstalk: awsBeanstalkDetector,
  Ec2: awsEc2Detector,
} satisfies Record<AwsResourceDetectorName, unknown>;

/**
 * Sets up what AWS needs (`Engine:Observability:Aws`): X-Ray trace ids and `X-Amzn-Trace-Id` propagation,
 * the AWS resource detectors (`cloud.provider: aws`, the Lambda function, ECS task, EKS cluster...), and
 * OTLP/HTTP to the ADOT collector or CloudWatch agent that forwards to X-Ray and CloudWatch. Needs
 * `addOpenTelemetry(builder)` from `@corekit/observability`.
 */
export const addAwsObservability: ObservabilityPackFunction<
  AwsObservabilityOptions,
  AwsObservabilityOptionsInput
> = defineObservabilityPack({
  id: awsObservabilityEventId,
  packageName: '@corekit/observability-aws',
  platform: 'AWS',
  entry: 'addAwsObservability',
  section: 'Engine:Observability:Aws',
  schema: awsObservabilityOptionsSchema,
  contribution: (settings) => ({
    ...otlpPlatformExporters(settings),
    ...(settings.XRayIdGenerator ? { idGenerator: () => new AWSXRayIdGenerator() } : {}),
    ...(settings.XRayPropagation ? { propagators: () => [new AWSXRayPropagator()] } : {}),
    ...(settings.ResourceDetectors.length > 0
      ? {
          resourceDetectors: () => [...new Set(settings.ResourceDetectors)].map((name) => detectors[name]),
        }
      : {}),
  }),
});
