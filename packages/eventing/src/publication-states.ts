import type { EventMessage, EventPublicationState, PublicationOutcome } from './eventing-model';

/**
 * The latest runtime state per publication id, oldest dropped first beyond `maxStates`. Process-local
 * observations: a restart starts empty (the outbox, not this book, is the durable truth).
 */
export class PublicationStateBook {
  private readonly states = new Map<string, EventPublicationState>();

  constructor(private readonly maxStates: number) {}

  /** Records one report; true when the latest outcome changed. */
  report(
    message: EventMessage,
    outcome: PublicationOutcome,
    subscriptionCounts: EventPublicationState['subscriptionCounts'],
    error: string | null,
    metadata: EventPublicationState['metadata'],
  ): boolean {
    const previous = this.states.get(message.publicationId);
    const state: EventPublicationState = {
      publicationId: message.publicationId,
      channelId: message.channelId,
      eventType: message.eventType,
      outcome,
      observedAtUtc: new Date().toISOString(),
      acceptedCount: previous?.acceptedCount ?? 0,
      succeededCount: previous?.succeededCount ?? 0,
      failedCount: previous?.failedCount ?? 0,
      skippedCount: previous?.skippedCount ?? 0,
      subscriptionCounts,
      error,
      metadata: { ...previous?.metadata, ...metadata, correlationId: message.correlationId },
    };
    state[`${outcome}Count`] += 1;
    this.states.delete(message.publicationId);
    this.states.set(message.publicationId, state);
    while (this.states.size > this.maxStates) {
      this.states.delete(this.states.keys().next().value as string);
    }
    return previous?.outcome !== outcome;
  }

  list(): EventPublicationState[] {
    return [...this.states.values()];
  }
}
