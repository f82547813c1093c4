import { randomUUID } from 'node:crypto';
import {
  defaultResource,
  detectResources,
  resourceFromAttributes,
  type Resource,
  type ResourceDetector,
} from '@opentelemetry/resources';
import type { ServiceIdentity } from '@corekit/abstractions';
import type { OpenTelemetryOptions } from './open-telemetry-options';
import type { ObservabilityResourceAttributes } from './observability-contribution';
import type { OtelEnvironment } from './otel-environment';

/** One instance id per process: replicas of one service tell their series apart by it. */
const processInstanceId = randomUUID();

/** What the resource is built from. */
export interface ResourceInputs {
  readonly options: OpenTelemetryOptions;
  readonly environment: OtelEnvironment;
  /** The engine's service (`builder.service`: `Engine:Service`, else the OTEL_* variables, else the default). */
  readonly service: ServiceIdentity;
  /** The engine's environment name (selects engine.<name>.json). */
  readonly environmentName: string | undefined;
  readonly contributedAttributes: readonly ObservabilityResourceAttributes[];
  readonly contributedDetectors: readonly ResourceDetector[];
}

/**
 * The resource every signal carries, lowest precedence first: the SDK's `telemetry.sdk.*`, contributed
 * attributes, contributed detectors, `OTEL_RESOURCE_ATTRIBUTES`, the core's `service.name`, `service.version`,
 * `service.instance.id` and `deployment.environment.name`, then the section's `ResourceAttributes`. No host,
 * process or owner detector runs: the host name, process id and command line are not published by default.
 */
export function telemetryResource(inputs: ResourceInputs): Resource {
  const { options, environment } = inputs;
  const fromEnvironment = environment.resourceAttributes;
  const environmentName = options.DeploymentEnvironment ?? inputs.environmentName;
  const version = options.ServiceVersion ?? inputs.service.version;
  const core: Record<string, string> = {
    'service.name': options.ServiceName ?? inputs.service.name,
    'service.instance.id':
      options.ServiceInstanceId ?? fromEnvironment['service.instance.id'] ?? processInstanceId,
    ...(version ? { 'service.version': version } : {}),
    ...(environmentName ? { 'deployment.environment.name': environmentName } : {}),
  };
  let resource = defaultResource();
  for (const attributes of inputs.contributedAttributes)
    resource = resource.merge(resourceFromAttributes(attributes));
  if (inputs.contributedDetectors.length > 0) {
    resource = resource.merge(detectResources({ detectors: [...inputs.contributedDetectors] }));
  }
  return resource
    .merge(resourceFromAttributes(fromEnvironment))
    .merge(resourceFromAttributes(core))
    .merge(resourceFromAttributes(options.ResourceAttributes));
}
