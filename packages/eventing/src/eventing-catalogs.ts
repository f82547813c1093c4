import type { CatalogDefinition } from '@corekit/abstractions';
import {
  eventDispatchRuntimeSchema,
  eventDispatchStateSchema,
  eventPublicationStateSchema,
  eventSubscriptionReadinessSchema,
  type EventDispatchRuntime,
  type EventDispatchState,
  type EventPublicationState,
  type EventSubscriptionReadiness,
} from './eventing-model';

/** Live sources of the four eventing catalogs. */
export interface EventingCatalogSources {
  dispatchRuntimes(): readonly EventDispatchRuntime[];
  dispatchStates(): readonly EventDispatchState[];
  publicationStates(): readonly EventPublicationState[];
  readiness(): readonly EventSubscriptionReadiness[];
}

/** The eventing catalogs of 4.3; the engine serves their list, by-id (404), view and narrowing routes. */
export function eventingCatalogs(sources: EventingCatalogSources): CatalogDefinition<any>[] {
  const dispatchRuntimes: CatalogDefinition<EventDispatchRuntime> = {
    id: 'event-dispatch-runtimes',
    displayName: 'Event dispatch runtimes',
    description: 'Dispatch runtimes, the outboxes they own and a summary once reports exist.',
    path: '/engine/event-dispatch-runtimes',
    snapshotField: 'eventDispatchRuntimes',
    idField: 'id',
    entrySchema: eventDispatchRuntimeSchema,
    list: () => sources.dispatchRuntimes(),
  };
  const dispatchStates: CatalogDefinition<EventDispatchState> = {
    id: 'event-dispatches',
    displayName: 'Event dispatch states',
    description: 'The latest dispatch state of every outbox path (404 by id until a state was reported).',
    path: '/engine/event-dispatches',
    snapshotField: 'eventDispatchStates',
    idField: 'outboxId',
    entrySchema: eventDispatchStateSchema,
    views: [
      {
        segment: 'terminal-failures',
        description: 'Outbox paths whose latest report is a terminal failure.',
        attention: true,
        select: (state) => state.terminalFailure,
      },
    ],
    list: () => sources.dispatchStates(),
  };
  const publicationStates: CatalogDefinition<EventPublicationState> = {
    id: 'event-publications-runtime',
    displayName: 'Event publication runtime states',
    description: 'The latest runtime state of every publication (bounded by MaxPublicationStates).',
    path: '/engine/event-publications/runtime',
    snapshotField: 'eventPublicationStates',
    idField: 'publicationId',
    entrySchema: eventPublicationStateSchema,
    narrowings: [
      {
        segment: 'channels',
        parameter: 'channelId',
        description: 'Publication states of one channel.',
        select: (state, channelId) => state.channelId === channelId,
      },
    ],
    list: () => sources.publicationStates(),
  };
  const readiness: CatalogDefinition<EventSubscriptionReadiness> = {
    id: 'event-subscription-readiness',
    displayName: 'Event subscription readiness',
    description: 'Execution readiness of every declared subscription, with ordered reasons.',
    path: '/engine/event-subscription-readiness',
    snapshotField: 'eventSubscriptionExecutionReadiness',
    idField: 'subscriptionId',
    entrySchema: eventSubscriptionReadinessSchema,
    list: () => sources.readiness(),
  };
  return [dispatchRuntimes, dispatchStates, publicationStates, readiness];
}
