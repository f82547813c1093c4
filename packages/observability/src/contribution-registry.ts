import { defineExtensionKey, type EngineBuilder } from '@corekit/abstractions';
import type { ObservabilityContribution } from './observability-contribution';

/**
 * The contributions registered on one builder, and whether `addOpenTelemetry` was called on it. Kept as a
 * typed extension of the builder (one per builder), so registration order between `addOpenTelemetry` and
 * `addObservabilityContribution` does not matter.
 */
export interface ContributionRegistry {
  readonly contributions: ObservabilityContribution[];
  openTelemetryAdded: boolean;
}

const contributionRegistryKey = defineExtensionKey<ContributionRegistry>(
  '@corekit/observability/contributions',
  'the observability contributions registered on this builder',
);

/** The builder's contribution registry, created on first use. */
export function contributionRegistry(builder: EngineBuilder): ContributionRegistry {
  const existing = builder.resolve(contributionRegistryKey);
  if (existing) return existing;
  const created: ContributionRegistry = { contributions: [], openTelemetryAdded: false };
  builder.provide(contributionRegistryKey, created);
  builder.addLifecycleHooks({
    id: 'observability.contributions',
    build: () =>
      created.contributions.length > 0 && !created.openTelemetryAdded
        ? [
            `Observability contributions (${created.contributions.map((entry) => entry.platform).join(', ')}) were registered, but addOpenTelemetry(builder) was not called: nothing would export. Call addOpenTelemetry from @corekit/observability.`,
          ]
        : [],
  });
  return created;
}
