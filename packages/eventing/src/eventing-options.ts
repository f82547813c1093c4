import { z } from 'zod';

/**
 * Options of the outbox lane (`Engine:Eventing:Outbox`). With the lane enabled, a publication is accepted once
 * it is staged in the outbox; a dispatch job sends staged messages later and reports every attempt through
 * the dispatch surfaces.
 */
export const eventingOutboxOptionsSchema = z.object({
  /** Stage publications in the outbox instead of running subscriptions during the request. Default false. */
  Enabled: z.boolean().default(false),
  /** Id of the outbox (published in `/engine/outboxes` and used by `/engine/event-dispatches/{outboxId}`). */
  OutboxId: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
    .max(200)
    .default('eventing-outbox'),
  /** Id of the dispatch runtime that owns the outbox (`/engine/event-dispatch-runtimes/{id}`). */
  DispatchRuntimeId: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
    .max(200)
    .default('eventing-dispatch'),
  /** Milliseconds between the end of one dispatch pass and the next. Default 1000; 10 to 3,600,000. */
  DispatchIntervalMilliseconds: z.number().int().min(10).max(3_600_000).default(1000),
  /** Most messages one pass claims. Default 50; 1 to 1000. */
  BatchSize: z.number().int().min(1).max(1000).default(50),
  /** Attempts per message before it is terminally failed. Default 5; 1 to 100. */
  MaxAttempts: z.number().int().min(1).max(100).default(5),
  /** Delay before a failed message is attempted again, in milliseconds. Default 1000; 0 to 3,600,000. */
  RetryDelayMilliseconds: z.number().int().min(0).max(3_600_000).default(1000),
  /**
   * How long a claim holds a message, in seconds. A dispatcher that dies mid-batch loses its claim after
   * this and another process sends the message again. Default 30; 1 to 3600.
   */
  LeaseSeconds: z.number().int().min(1).max(3600).default(30),
  /**
   * Module that owns the outbox; when set, the outbox is published in `/engine/outboxes` under it (the
   * module must be registered). Default: not published there.
   */
  SourceModuleId: z.string().min(1).optional(),
  /** Most messages kept staged; staging beyond it is refused (503). Default 10,000; 1 to 1,000,000. */
  MaxStagedMessages: z.number().int().min(1).max(1_000_000).default(10_000),
});

/** The `Engine:Eventing` section (every key the spec names, in its PascalCase). */
export const eventingOptionsSchema = z.object({
  /** Serve `POST /engine/event-publications`. When false the route answers 404 (not active). Default true. */
  EnablePublication: z.boolean().default(true),
  /**
   * Run subscription executors in this process (readiness moves from declared-only to runtime-bound for
   * every subscription with an executor). Default true.
   */
  EnableInProcessSubscriptionExecution: z.boolean().default(true),
  /** Attempts per subscription execution; values above 1 enable bounded retry. Default 1; 1 to 10. */
  InProcessSubscriptionMaxAttempts: z.number().int().min(1).max(10).default(1),
  /** Delay between two attempts, in milliseconds. Default 100; 0 to 60,000. */
  InProcessSubscriptionRetryDelayMilliseconds: z.number().int().min(0).max(60_000).default(100),
  /** Longest one attempt may run before it counts as failed, in milliseconds. Default 30,000; 1 to 600,000. */
  InProcessSubscriptionTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(30_000),
  /**
   * Skip an execution whose subscriptionId + publicationId already completed (outcome skipped). Process-local
   * ledger in the engine store `eventing.idempotency`. Default false.
   */
  EnableInProcessSubscriptionIdempotency: z.boolean().default(false),
  /** How long a completed execution is remembered, in minutes. Default 60; 1 to 10,080 (a week). */
  InProcessSubscriptionIdempotencyRetentionMinutes: z.number().int().min(1).max(10_080).default(60),
  /** Largest accepted payload, in bytes of its JSON form. Default 262,144; 1 to 10,485,760. */
  MaxPayloadBytes: z.number().int().min(1).max(10_485_760).default(262_144),
  /** Most publication runtime states kept (oldest dropped first). Default 1000; 1 to 100,000. */
  MaxPublicationStates: z.number().int().min(1).max(100_000).default(1000),
  /**
   * With a shared store provider (PostgreSQL, Redis) whose change feed is off (`Engine:Stores:ChangeFeed:Enabled`
   * false) or down, how often this replica reads the whole shared publication and dispatch states again, in
   * milliseconds: what another replica recorded shows here at most this long (plus one store round trip) later.
   * With the feed connected,
   * each change is read as it is announced (the surfaces report the measured bound) and this interval is the
   * fallback while the feed reconnects. Unused with Memory or File. Default 1000; 50 to 60,000.
   */
  SharedStateRefreshMilliseconds: z.number().int().min(50).max(60_000).default(1000),
  Outbox: eventingOutboxOptionsSchema.default(eventingOutboxOptionsSchema.parse({})),
});

export type EventingOptions = z.output<typeof eventingOptionsSchema>;
/** Options as code passes them to `addEventing` (every key optional). */
export type EventingOptionsInput = z.input<typeof eventingOptionsSchema>;
