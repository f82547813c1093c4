import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import { addObservabilityContribution, type ObservabilityContribution } from '@corekit/observability';
import type { ZodType } from 'zod';
import { observabilitySectionRoot } from './observability-pack-options';

/** The platform-specific part of a contribution: everything but the id and the platform name. */
export type PlatformContribution = Omit<ObservabilityContribution, 'id' | 'platform'>;

/** How a hosted-platform pack plugs into the kit. */
export interface ObservabilityPackDefinition<T extends { readonly Enabled: boolean }> {
  /** The pack's spec event id (runtime-operations 6: 3111, 3112, ... 3154). */
  readonly id: number;
  /** The platform's name for people and logs (`Datadog`, `Azure Monitor`). */
  readonly platform: string;
  /** The pack's package (`@corekit/observability-datadog`), named when a second call is refused. */
  readonly packageName?: string;
  /** Section below `Engine:Observability` (`Datadog`, `AzureMonitor`). */
  readonly section: string;
  readonly schema: ZodType<T>;
  /** Checks across fields; each problem names its full key path and never a value. */
  readonly check?: (settings: T, path: string) => string[];
  /**
   * Values of the section that are secrets without being a single `secretString()` field (header values,
   * parts of a connection string): registered with the engine so no log line carries them.
   */
  readonly secrets?: (settings: T) => readonly string[];
  /** Builds the platform's exporters, detectors, propagators and id generator from the bound settings. */
  readonly contribution: (settings: T) => PlatformContribution;
}

/**
 * The registration every `add<Platform>Observability` makes: refuses a second call on one builder
 * (ALREADY_REGISTERED), binds `Engine:Observability:<section>` strictly (unknown keys,
 * `<PLACEHOLDER>` secrets and bad values are startup errors naming the key path), registers the section's
 * secrets, and adds the platform's contribution to the SDK `addOpenTelemetry` starts, which logs the pack's
 * event id at registration and on every failed export. With `Enabled: false` it only registers the event id
 * and logs that the pack is off.
 */
export function addObservabilityPack<
  T extends { readonly Enabled: boolean; readonly Headers?: Readonly<Record<string, string>> },
>(builder: EngineBuilder, definition: ObservabilityPackDefinition<T>, options: unknown): T {
  builder.claimRegistration({
    packageName: definition.packageName ?? '@corekit/observability-kit',
    entry: `add${definition.section}Observability`,
    key: `@corekit/observability-kit/${definition.section}`,
  });
  builder.declarePack({ packageName: '@corekit/observability-kit', specificationVersion: 1 });
  const path = `${observabilitySectionRoot}:${definition.section}`;
  const settings = builder.configuration.bind(path, definition.schema, options);
  for (const value of [...Object.values(settings.Headers ?? {}), ...(definition.secrets?.(settings) ?? [])])
    if (value) builder.addSecret(value);
  const problems = definition.check?.(settings, path) ?? [];
  if (problems.length > 0) {
    throw new CoreError('CONFIGURATION_INVALID', `Invalid configuration:\n- ${problems.join('\n- ')}`, {
      section: path,
      problems,
    });
  }
  if (!settings.Enabled) {
    builder.addEventIds({
      component: `Observability pack: ${definition.platform}`,
      ranges: [[definition.id, definition.id]],
      names: { [definition.id]: 'observability-pack' },
    });
    builder.logger.log({
      level: 'info',
      eventId: definition.id,
      category: 'corekit.observability',
      message: `Observability pack for ${definition.platform} is off (${path}:Enabled is false): nothing is exported to it`,
      platform: definition.platform,
    });
    return settings;
  }
  addObservabilityContribution(builder, {
    id: definition.id,
    platform: definition.platform,
    ...definition.contribution(settings),
  });
  return settings;
}
