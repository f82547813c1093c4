export { addEventing, eventingRegistrationKey } from './add-eventing';
export type { EventingRegistration } from './add-eventing';
export { declareEventing, addEventSubscriptionExecutor } from './eventing-registry';
export type {
  EventingDeclarations,
  SubscriptionExecution,
  SubscriptionExecutor,
  EventChannelDeclaration,
  EventSubscriptionDeclaration,
  EventPublisherDeclaration,
} from './eventing-declarations';
export { eventingOptionsSchema, eventingOutboxOptionsSchema } from './eventing-options';
export type { EventingOptions, EventingOptionsInput } from './eventing-options';
export {
  eventPublicationRequestSchema,
  eventPublicationResultSchema,
  eventPublicationStateSchema,
  eventDispatchStateSchema,
  eventDispatchRuntimeSchema,
  eventSubscriptionReadinessSchema,
} from './eventing-model';
export type {
  EventMessage,
  EventPublicationRequest,
  EventPublicationResult,
  EventPublicationState,
  EventDispatchState,
  EventDispatchRuntime,
  EventSubscriptionReadiness,
  PublicationOutcome,
  DispatchOutcome,
} from './eventing-model';
export { eventingErrorCodes, publicationRoute, routeTriggerPublisherId } from './eventing-constants';
export { eventPublicationResourceKind } from './publication-operation';
export { eventingEventIds } from './eventing-event-ids';
export { outboxStoreKey, eventDispatcherKey, useOutboxStore, useEventDispatcher } from './outbox-store';
export type { OutboxStore, ClaimedOutboxMessage, EventDispatcher } from './outbox-store';
export { MessagingTelemetry, destinationOn, traceCarrierOf } from './messaging-telemetry';
export type { MessagingDestination, MessagingDescription } from './messaging-telemetry';
export { KeyedOutboxStore } from './keyed-outbox-store';
export { MemoryOutboxStore } from './memory-outbox-store';
export type { MemoryOutboxOptions } from './memory-outbox-store';
export type { DispatchPassResult } from './outbox-dispatcher';
