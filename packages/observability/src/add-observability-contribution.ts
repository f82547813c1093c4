import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import { contributionRegistry } from './contribution-registry';
import type { ObservabilityContribution } from './observability-contribution';

/**
 * Adds a hosted-platform pack's exporters, readers, processors, resource detectors and attributes, propagators
 * or id generator to the SDK that `addOpenTelemetry(builder)` starts. Call it during registration, before or
 * after `addOpenTelemetry` (the SDK starts once the engine is built); the build fails when contributions exist
 * and `addOpenTelemetry` was never called. Logs the contribution's `id` as the event id of an info record, and
 * registers it as an engine event id. Throws OBSERVABILITY_CONTRIBUTION_INVALID for an id that is not a
 * positive integer, an empty platform, or an id already contributed.
 */
export function addObservabilityContribution(
  builder: EngineBuilder,
  contribution: ObservabilityContribution,
): EngineBuilder {
  if (!Number.isInteger(contribution.id) || contribution.id <= 0) {
    throw new CoreError(
      'OBSERVABILITY_CONTRIBUTION_INVALID',
      `An observability contribution's id must be the pack's spec event id (a positive integer), got ${String(contribution.id)}`,
    );
  }
  if (!contribution.platform.trim()) {
    throw new CoreError(
      'OBSERVABILITY_CONTRIBUTION_INVALID',
      `The observability contribution ${contribution.id} needs a platform name`,
    );
  }
  const registry = contributionRegistry(builder);
  const twin = registry.contributions.find((entry) => entry.id === contribution.id);
  if (twin) {
    throw new CoreError(
      'OBSERVABILITY_CONTRIBUTION_INVALID',
      `The observability contribution ${contribution.id} (${contribution.platform}) is already registered (${twin.platform}); register each platform pack once`,
    );
  }
  registry.contributions.push(contribution);
  builder.addEventIds({
    component: `Observability pack: ${contribution.platform}`,
    ranges: [[contribution.id, contribution.id]],
    names: { [contribution.id]: 'observability-pack' },
  });
  builder.logger.log({
    level: 'info',
    eventId: contribution.id,
    category: 'corekit.observability',
    message: `Observability pack for ${contribution.platform} registered (event id ${contribution.id})`,
    platform: contribution.platform,
    contributes: contributedParts(contribution),
  });
  return builder;
}

/** The optional members a contribution sets, for the registration record. */
function contributedParts(contribution: ObservabilityContribution): string[] {
  const parts: Array<keyof ObservabilityContribution> = [
    'spanExporters',
    'spanProcessors',
    'metricExporters',
    'metricReaders',
    'logRecordExporters',
    'logRecordProcessors',
    'resourceDetectors',
    'resourceAttributes',
    'propagators',
    'idGenerator',
  ];
  return parts.filter((part) => contribution[part] !== undefined);
}
