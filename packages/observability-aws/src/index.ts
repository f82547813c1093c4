export { addAwsObservability, awsObservabilityEventId } from './add-aws-observability';
export { awsObservabilityOptionsSchema, awsResourceDetectorNames } from './aws-observability-options';
export type {
  AwsObservabilityOptions,
  AwsObservabilityOptionsInput,
  AwsResourceDetectorName,
} from './aws-observability-options';
