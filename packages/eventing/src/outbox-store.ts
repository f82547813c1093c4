import {
  defineExtensionKey,
  type DatabaseClientTarget,
  type EngineBuilder,
  type PackTelemetry,
} from '@corekit/abstractions';
import type { EventMessage } from './eventing-model';

/** A staged message a dispatcher holds under a lease. */
export interface ClaimedOutboxMessage {
  /** The outbox message id: the publication id (staging one publication twice keeps one message). */
  readonly id: string;
  readonly message: EventMessage;
  /** The attempt this claim makes, 1 for the first. */
  readonly attempt: number;
}

/**
 * Where staged messages wait for dispatch. Implementations guarantee that a claimed message is held by one
 * owner until its lease expires, that only the owner of a live claim can complete it, and that a message
 * whose lease expired is claimable again (so a dispatcher dying mid-batch loses nothing).
 */
export interface OutboxStore {
  /** `engine-store` (the engine's keyed store: memory by default), `postgresql`... */
  readonly provider: string;
  /** Stages a message; true when new, false when a message with this publication id was already staged. */
  stage(message: EventMessage): Promise<boolean>;
  /** Claims up to `limit` due messages for `owner` for `leaseMs`. */
  claim(owner: string, limit: number, leaseMs: number): Promise<ClaimedOutboxMessage[]>;
  /** Marks a claimed message dispatched; false when the claim was lost (the lease expired and moved on). */
  complete(id: string, owner: string): Promise<boolean>;
  /**
   * Optional batch form of `complete`: marks every listed message dispatched in one round trip and answers
   * the ids whose claim was still held. The dispatch loop prefers it when present.
   */
  completeMany?(ids: readonly string[], owner: string): Promise<readonly string[]>;
  /**
   * Extends the claims `owner` still holds on `ids` to `leaseMs` from now; answers the ids still held (a claim
   * lost meanwhile, taken over after it lapsed, is left alone). The dispatch loop renews a batch's claims with it
   * while the batch is being sent, so a send slower than the lease is not claimed and sent again by another
   * dispatcher. Optional: without it a claim lasts `leaseMs` from the claim, whatever the send takes.
   */
  extend?(ids: readonly string[], owner: string, leaseMs: number): Promise<readonly string[]>;
  /** Releases a claimed message for another attempt at `availableAt`. */
  retry(id: string, owner: string, availableAt: Date, error: string): Promise<boolean>;
  /**
   * Gives a claimed message back untouched: claimable again at once, and the attempt its claim counted is
   * uncounted (the engine stopped before the attempt could complete). False when the claim was lost. Optional:
   * without it, a claim the stop interrupted stays until its lease expires and its attempt counts.
   */
  release?(id: string, owner: string): Promise<boolean>;
  /** Marks a claimed message terminally failed; it stays in the outbox for inspection. */
  fail(id: string, owner: string, error: string): Promise<boolean>;
  /** Messages waiting (staged or retry-pending). */
  pendingCount(): Promise<number>;
  /** The database of an outbox on a server (`db.system.name` `postgresql`...); absent for the engine store. */
  readonly database?: DatabaseClientTarget;
  /**
   * Called once by `useOutboxStore` with the engine's meter and tracer: the outbox then measures its
   * database operations per the semantic conventions (`db.client.operation.duration`, CLIENT spans).
   */
  useTelemetry?(telemetry: PackTelemetry): void;
}

/**
 * Sends one staged message to its destination (a broker, or this process's subscriptions). Resolving means
 * the destination confirmed the message; throwing schedules a retry, then a terminal failure.
 */
export interface EventDispatcher {
  readonly id: string;
  /** `core-managed` for in-process delivery, `provider-managed` for a broker. */
  readonly executionOwnership: string;
  /**
   * `messaging.system` of the telemetry (`rabbitmq`, `kafka`, `mqtt`; `corekit` for this process's
   * subscriptions). Default: the dispatcher's `id`.
   */
  readonly messagingSystem?: string;
  /**
   * `messaging.destination.name` of `message`: where it goes (the exchange and routing key, the topic), the
   * span names' `{destination}`. Default: the message's channel id.
   */
  destinationOf?(message: EventMessage): string;
  dispatch(message: EventMessage, signal: AbortSignal): Promise<void>;
  /**
   * Optional batch form of `dispatch`: sends every message (one confirm wait for the batch) and answers, in
   * order, null for each message the destination confirmed and the error of each it did not. Throwing fails
   * the whole batch. The dispatch loop prefers it when present.
   */
  dispatchMany?(messages: readonly EventMessage[], signal: AbortSignal): Promise<readonly (Error | null)[]>;
  /** Called when the engine stops. */
  close?(): Promise<void>;
}

export const outboxStoreKey = defineExtensionKey<OutboxStore>(
  '@corekit/eventing/outbox-store',
  'where the eventing outbox lane stages messages (default: the engine store eventing-outbox)',
);
export const eventDispatcherKey = defineExtensionKey<EventDispatcher>(
  '@corekit/eventing/dispatcher',
  'what the eventing dispatch job sends staged messages with (default: in-process subscriptions)',
);

/** Makes the outbox lane stage into this store (a PostgreSQL outbox, for example). */
export function useOutboxStore(builder: EngineBuilder, store: OutboxStore): void {
  builder.provide(outboxStoreKey, store);
  store.useTelemetry?.({ meter: builder.meter, tracer: builder.tracer });
}

/** Makes the dispatch job send staged messages with this dispatcher (a broker dispatcher, for example). */
export function useEventDispatcher(builder: EngineBuilder, dispatcher: EventDispatcher): void {
  builder.provide(eventDispatcherKey, dispatcher);
}
