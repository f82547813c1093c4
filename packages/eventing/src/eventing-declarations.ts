import { identifierSchema } from '@corekit/abstractions';
import { z } from 'zod';
import type { EventMessage } from './eventing-model';

/** A channel: a named stream of events a module owns. */
export const eventChannelDeclarationSchema = z
  .object({
    id: identifierSchema,
    displayName: z.string().min(1).optional(),
    description: z.string().default(''),
    /** Event types the channel carries; empty means any. */
    eventTypes: z.array(z.string().min(1)).default([]),
  })
  .strict();

/**
 * A subscription: who reacts to a channel. `executionOwnership` says who runs it: `core-managed` (an executor
 * in this process), `hosted-execution` (a hosted execution, linked by `hostedExecutionId`) or
 * `application-managed` (the application runs it and only declares it).
 */
export const eventSubscriptionDeclarationSchema = z
  .object({
    id: identifierSchema,
    channelId: identifierSchema,
    displayName: z.string().min(1).optional(),
    description: z.string().default(''),
    /** Event types this subscription takes; empty means every type on the channel. */
    eventTypes: z.array(z.string().min(1)).default([]),
    executionOwnership: z
      .enum(['core-managed', 'hosted-execution', 'application-managed'])
      .default('core-managed'),
    hostedExecutionId: identifierSchema.optional(),
  })
  .strict();

/** A publisher: a module that publishes to channels (the route-trigger publisher is the pack's own). */
export const eventPublisherDeclarationSchema = z
  .object({
    id: identifierSchema,
    displayName: z.string().min(1).optional(),
    description: z.string().default(''),
    channelIds: z.array(identifierSchema).min(1),
  })
  .strict();

export type EventChannelDeclaration = z.output<typeof eventChannelDeclarationSchema>;
export type EventSubscriptionDeclaration = z.output<typeof eventSubscriptionDeclarationSchema>;
export type EventPublisherDeclaration = z.output<typeof eventPublisherDeclarationSchema>;

/** What a subscription executor receives for one attempt. */
export interface SubscriptionExecution {
  readonly subscriptionId: string;
  readonly message: EventMessage;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** Aborted when the attempt times out or the engine stops; an executor should stop then. */
  readonly signal: AbortSignal;
}

/**
 * Runs one subscription for one message. Throwing (or rejecting) fails the attempt; the pack retries up to
 * `InProcessSubscriptionMaxAttempts`. Delivery is at-least-once: an executor may see a message twice (retry,
 * outbox redelivery after a lost lease) and should use `subscriptionId` + `message.publicationId` to
 * deduplicate its own side effects.
 */
export type SubscriptionExecutor = (execution: SubscriptionExecution) => Promise<void> | void;

/** Declarations one module contributes. */
export interface EventingDeclarations {
  /** The declaring module (must be registered with `addModule`). */
  readonly moduleId: string;
  readonly channels?: readonly z.input<typeof eventChannelDeclarationSchema>[];
  readonly subscriptions?: ReadonlyArray<
    z.input<typeof eventSubscriptionDeclarationSchema> & { readonly execute?: SubscriptionExecutor }
  >;
  readonly publishers?: readonly z.input<typeof eventPublisherDeclarationSchema>[];
}

/** A declaration with the module that made it. */
export type Owned<T> = T & { readonly sourceModuleId: string };
