import {
  defineExtensionKey,
  type Engine,
  type EngineBuilder,
  type InstanceRecord,
  type LifecycleHooks,
} from '@corekit/abstractions';
import type { Clock } from '../clock';
import type { ConfigurationStore } from '../configuration-store';
import type { RedactingLogger } from '../logger';
import { instanceStoreName } from './instance-record';
import { instanceCatalog } from './presence-catalog';
import { presenceOptionsSchema, type PresenceOptions } from './presence-options';
import { ReplicaPresence } from './replica-presence';

/** The presence of this engine instance (`engine.resolve(replicaPresenceKey)`): its entries and a heartbeat now. */
export const replicaPresenceKey = defineExtensionKey<ReplicaPresence>(
  '@corekit/engine-core/replica-presence',
  'replica presence: heartbeats in the engine store and the /engine/instances catalog',
);

/** What of the engine builder presence registers with (the pack contract plus the bound configuration). */
export interface PresenceBuilder extends EngineBuilder {
  readonly configuration: ConfigurationStore;
  readonly logger: RedactingLogger;
}

/**
 * Registers replica presence with an engine builder, through the pack contract only: `Engine:Presence` (bound
 * here, so a bad value fails when the builder is created), the `engine-instances` store and the `instances`
 * catalog. Answers the lifecycle hooks that start, keep and end the heartbeats (null when disabled), which the
 * builder adds after every other registration's.
 */
export function registerReplicaPresence(
  builder: PresenceBuilder,
  clock: Clock,
  engineVersion: string,
): LifecycleHooks | null {
  const options = builder.configuration.bind('Engine:Presence', presenceOptionsSchema) as PresenceOptions;
  let engine: Engine | null = null;
  const presence = new ReplicaPresence({
    instanceId: builder.instanceId,
    engineVersion,
    options,
    service: builder.service,
    store: builder.openStore<InstanceRecord>(instanceStoreName, {
      description: 'replica presence: one heartbeat record per engine instance of the service',
    }),
    shared: () => builder.storeTraits().shared,
    clock,
    vitals: () =>
      engine && {
        state: engine.state,
        readiness: engine.readiness().status,
        restartCount: engine.status().restartCount,
      },
    story: builder.story,
    events: builder.events,
    logger: builder.logger,
    redact: (text) => builder.logger.redact(text),
  });
  builder.provide(replicaPresenceKey, presence);
  builder.addCatalog(instanceCatalog(() => (options.Enabled ? presence.entries() : [])));
  return options.Enabled ? presenceHooks(presence, (built) => (engine = built)) : null;
}

/**
 * The lifecycle hooks of presence. The builder runs them after every pack's (`build()` appends them last): the
 * last heartbeat of a stop is written once the packs released their work, and never delays their hooks.
 */
function presenceHooks(presence: ReplicaPresence, attach: (engine: Engine) => void): LifecycleHooks {
  return {
    id: 'engine-presence',
    attach: (built) => {
      attach(built);
      // A heartbeat at once on every runtime state or readiness change, so the others see it without waiting.
      built.subscribe((event) => {
        const changed =
          (event.type === 'runtime-story' && event.entry.kind === 'runtime') ||
          (event.type === 'health-changed' && event.probe === 'readiness');
        if (changed && presence.beating) void presence.beat();
      });
    },
    starting: () => presence.begin(),
    stopping: async (context) => {
      if (context.restarting) await presence.beat();
      // A stop during a start is a failed start: the last record says Failed, the instance goes offline.
      else await presence.end(context.state !== 'Starting');
    },
  };
}
