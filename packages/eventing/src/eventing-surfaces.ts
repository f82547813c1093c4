import type { SharedStateFreshnessMetadata, StorePosture, TechnologySurface } from '@corekit/abstractions';
import type { EventPublicationState, EventSubscriptionReadiness, StateScope } from './eventing-model';
import type { EventingOptions } from './eventing-options';
import type { EventingRegistry } from './eventing-registry';
import { routeTriggerPublisherId, publicationRoute } from './eventing-constants';
import type { EventDispatcher } from './outbox-store';
import { executionPathOf, executionPolicyKeys } from './subscription-readiness';

/** What the surfaces derive from the installed parts: the idempotency ledger's store and the broker dispatcher. */
export interface EventingInstallation {
  /** The posture of the store `eventing-idempotency` lives on. */
  readonly ledger: StorePosture;
  /** The broker dispatcher staged messages go to (null: this process's executors run them). */
  readonly dispatcher: EventDispatcher | null;
  /** Where the publication states the `reported.*` keys come from live: `shared` or `process-local`. */
  readonly publicationStateScope: StateScope;
  /** How the shared publication states follow other replicas (and their staleness bound); null while process-local. */
  readonly publicationStateFreshness: SharedStateFreshnessMetadata | null;
}

const sourcePackage = '@corekit/eventing';

/** The `event-channels`, `event-subscriptions` and `event-publishers` surfaces (2.5), one entry per declaration. */
export function eventingSurfaces(
  registry: EventingRegistry,
  options: EventingOptions,
  readiness: readonly EventSubscriptionReadiness[],
  publications: readonly EventPublicationState[],
  installation: EventingInstallation,
): TechnologySurface[] {
  const policy = executionPolicyKeys(options, installation.ledger);
  const executionPath = executionPathOf(options, installation.dispatcher);
  const surfaces: TechnologySurface[] = [];
  for (const channel of registry.channels.values()) {
    const states = publications.filter((state) => state.channelId === channel.id);
    const latest = states.at(-1);
    surfaces.push({
      id: `event-channels/${channel.id}`,
      kind: 'event-channels',
      displayName: channel.displayName ?? channel.id,
      sourcePackage,
      metadata: {
        sourceModuleId: channel.sourceModuleId,
        description: channel.description,
        eventTypes: channel.eventTypes,
        subscriptionIds: [...registry.subscriptions.values()]
          .filter((s) => s.channelId === channel.id)
          .map((s) => s.id),
        publisherIds: [
          routeTriggerPublisherId,
          ...[...registry.publishers.values()]
            .filter((p) => p.channelIds.includes(channel.id))
            .map((p) => p.id),
        ],
        executionPath,
        ...policy,
        'reported.publicationCount': states.length,
        'reported.lastPublicationId': latest?.publicationId ?? null,
        'reported.lastOutcome': latest?.outcome ?? null,
        'reported.lastObservedAtUtc': latest?.observedAtUtc ?? null,
        'reported.scope': installation.publicationStateScope,
        ...installation.publicationStateFreshness,
      },
    });
  }
  for (const entry of readiness) {
    const subscription = registry.subscriptions.get(entry.subscriptionId)!;
    surfaces.push({
      id: `event-subscriptions/${entry.subscriptionId}`,
      kind: 'event-subscriptions',
      displayName: subscription.displayName ?? subscription.id,
      sourcePackage,
      metadata: {
        ...policy,
        ...entry.metadata,
        eventTypes: subscription.eventTypes,
        executionReadiness: entry.readinessState,
        executionReadinessReasons: entry.reasons,
        executionOwnership: entry.executionOwnership,
        executionMode: entry.executionMode,
        executionRuntimeId: entry.executionRuntimeId,
      },
    });
  }
  const declared = [...registry.publishers.values()];
  surfaces.push({
    id: `event-publishers/${routeTriggerPublisherId}`,
    kind: 'event-publishers',
    displayName: 'Route trigger (POST /engine/event-publications)',
    sourcePackage,
    metadata: {
      trigger: 'route',
      route: publicationRoute,
      active: options.EnablePublication,
      channelIds: [...registry.channels.keys()],
      executionReadiness: options.EnablePublication ? 'runtime-bound' : 'declared-only',
      executionReadinessReasons: [options.EnablePublication ? 'publication-enabled' : 'publication-disabled'],
      executionPath,
      ...policy,
      'reported.publicationCount': publications.length,
      'reported.lastOutcome': publications.at(-1)?.outcome ?? null,
      'reported.scope': installation.publicationStateScope,
      ...installation.publicationStateFreshness,
    },
  });
  for (const publisher of declared) {
    surfaces.push({
      id: `event-publishers/${publisher.id}`,
      kind: 'event-publishers',
      displayName: publisher.displayName ?? publisher.id,
      sourcePackage,
      metadata: {
        sourceModuleId: publisher.sourceModuleId,
        description: publisher.description,
        channelIds: publisher.channelIds,
        executionReadiness: 'application-managed-state',
        executionReadinessReasons: ['application-managed'],
        executionPath: 'application-managed',
        ...policy,
      },
    });
  }
  return surfaces;
}
