import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import { addObservabilityContribution, type ObservabilityContribution } from '@corekit/observability';
import type { ZodType } from 'zod';
import { observabilitySectionRoot } from './observability-pack-options';

/** The platform-specific part of a contribution: everything but the id and the platform name. */
export type PlatformContribution = Omit<ObservabilityContribution, 'id' | 'platform'>;

/** How a hosted-platform pack plugs into the kit through the deprecated `addObservabilityPack`. */
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

/** The settings every pack's section has: `Enabled`, and the `Headers` registered as secrets. */
type PackSettings = { readonly Enabled: boolean; readonly Headers?: Readonly<Record<string, string>> };

/**
 * A hosted-platform pack's descriptor: what `defineObservabilityPack` turns into its
 * `add<Platform>Observability(builder, options?)`.
 */
export interface ObservabilityPackDescriptor<T extends { readonly Enabled: boolean }> extends Omit<
  ObservabilityPackDefinition<T>,
  'packageName' | 'section'
> {
  /** The pack's package (`@corekit/observability-datadog`), named when a second call is refused. */
  readonly packageName: string;
  /** The `add*` function's name (`addDatadogObservability`), named when a second call is refused. */
  readonly entry: string;
  /** The full configuration path of the section (`Engine:Observability:Datadog`). */
  readonly section: string;
}

/** What `defineObservabilityPack` returns: a platform pack's `add<Platform>Observability`. */
export type ObservabilityPackFunction<T, TInput = unknown> = (builder: EngineBuilder, options?: TInput) => T;

/**
 * Turns a pack descriptor into its `add<Platform>Observability(builder, options?)`, which answers the bound
 * settings. The call refuses a second call on one builder (`builder.claimRegistration`, ALREADY_REGISTERED),
 * binds the section strictly (unknown keys, `<PLACEHOLDER>` secrets and bad values are startup errors naming the
 * key path), registers the section's secrets, and adds the platform's contribution to the SDK
 * `addOpenTelemetry` starts, which logs the pack's event id at registration and on every failed export. With
 * `Enabled: false` it only registers the event id and logs that the pack is off.
 */
export function defineObservabilityPack<T extends PackSettings, TInput = unknown>(
  descriptor: ObservabilityPackDescriptor<T>,
): ObservabilityPackFunction<T, TInput> {
  return function addObservability(builder: EngineBuilder, options?: TInput): T {
    const { packageName, entry, section } = descriptor;
    builder.claimRegistration({ packageName, entry, key: `@corekit/observability-kit/${section}` });
    return registerPack(builder, descriptor, options);
  };
}

/**
 * Registers a platform pack from a definition whose section is below `Engine:Observability`.
 *
 * @deprecated Use `defineObservabilityPack({ packageName, entry, section: <full path>, ... })`, which returns
 * the `add*` function. This entry takes the section below `Engine:Observability` and stays for packs written
 * against it.
 */
export function addObservabilityPack<T extends PackSettings>(
  builder: EngineBuilder,
  definition: ObservabilityPackDefinition<T>,
  options: unknown,
): T {
  const section = `${observabilitySectionRoot}:${definition.section}`;
  builder.claimRegistration({
    packageName: definition.packageName ?? '@corekit/observability-kit',
    entry: `add${definition.section}Observability`,
    key: `@corekit/observability-kit/${section}`,
  });
  return registerPack(builder, { ...definition, section }, options);
}

/** The registration itself, after the claim: `definition.section` is the full path. */
function registerPack<T extends PackSettings>(
  builder: EngineBuilder,
  definition: ObservabilityPackDefinition<T>,
  options: unknown,
): T {
  builder.declarePack({ packageName: '@corekit/observability-kit', specificationVersion: 1 });
  const path = definition.section;
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
