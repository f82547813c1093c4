import { StoreMirror, type EngineBuilder, type KeyedStore } from '@corekit/abstractions';
import type { StoredDispatchState } from './dispatch-states';
import { eventingEventIds } from './eventing-event-ids';
import type { EventingOptions } from './eventing-options';
import type { StoredPublicationState } from './publication-states';

/** A state store and the synchronous read copy the catalogs read. */
export interface MirroredStore<T> {
  readonly store: KeyedStore<T>;
  readonly mirror: StoreMirror<T>;
}

/** The engine stores the publication and dispatch states move to when the store provider is shared. */
export interface SharedEventingStates {
  readonly publications: MirroredStore<StoredPublicationState>;
  readonly dispatches: MirroredStore<StoredDispatchState>;
  /** Loads both copies and refreshes them every `SharedStateRefreshMilliseconds` (a failed load is logged). */
  start(): Promise<void>;
  stop(): void;
}

/**
 * Opens `eventing-publication-states` (bounded by `MaxPublicationStates`) and `eventing-dispatch-states` (one
 * record per outbox) at registration; the pack uses them only when `builder.storeTraits().shared` at start.
 */
export function openSharedEventingStates(
  builder: EngineBuilder,
  settings: EventingOptions,
): SharedEventingStates {
  const onRefreshFailure = (what: string) => (error: unknown) =>
    builder.logger.log({
      level: 'warn',
      eventId: eventingEventIds.dispatchPassFailed,
      category: 'eventing',
      message: `The shared ${what} could not be read; the surfaces keep the last copy and the next refresh retries`,
      error: error instanceof Error ? error.message.slice(0, 300) : String(error),
    });
  const mirrored = <T>(name: string, maxEntries: number, description: string, what: string) => {
    const store = builder.openStore<T>(name, { maxEntries, description });
    const mirror = new StoreMirror(store, {
      refreshMs: settings.SharedStateRefreshMilliseconds,
      onRefreshFailure: onRefreshFailure(what),
    });
    return { store, mirror };
  };
  const publications = mirrored<StoredPublicationState>(
    'eventing-publication-states',
    settings.MaxPublicationStates,
    'the latest runtime state of every publication, shared by the replicas',
    'publication states',
  );
  const dispatches = mirrored<StoredDispatchState>(
    'eventing-dispatch-states',
    1000,
    'the latest dispatch state and report totals of every outbox, shared by the replicas',
    'dispatch states',
  );
  const mirrors = [
    [publications.mirror, 'publication states'],
    [dispatches.mirror, 'dispatch states'],
  ] as const;
  return {
    publications,
    dispatches,
    async start() {
      await Promise.all(mirrors.map(([mirror, what]) => mirror.start(true).catch(onRefreshFailure(what))));
    },
    stop() {
      for (const [mirror] of mirrors) mirror.stop();
    },
  };
}
