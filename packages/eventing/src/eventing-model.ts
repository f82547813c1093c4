import { z } from 'zod';

const safeMetadataSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** The body of `POST /engine/event-publications` (spec 2.4, event publication request). */
export const eventPublicationRequestSchema = z
  .object({
    /** Publication id; generated when absent. It is the idempotency key consumers should use. */
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
      .max(200)
      .optional(),
    channelId: z.string().min(1).max(200),
    eventType: z.string().min(1).max(200),
    payload: z.union([
      z.string(),
      z.record(z.string(), z.unknown()),
      z.array(z.unknown()),
      z.number(),
      z.boolean(),
    ]),
    occurredAtUtc: z.iso.datetime({ offset: true }).optional(),
    contentType: z.string().min(1).max(200).default('application/json'),
    correlationId: z.string().max(200).optional(),
    tenantId: z.string().max(200).optional(),
    headers: z.record(z.string(), z.string().max(4096)).optional(),
    /** Safe metadata: scalar values only, never secrets or personal identifiers. */
    metadata: safeMetadataSchema.optional(),
    actorId: z.string().max(200).optional(),
  })
  .strict();
export type EventPublicationRequest = z.input<typeof eventPublicationRequestSchema>;

/** A publication as subscriptions and dispatchers see it. */
export interface EventMessage {
  readonly publicationId: string;
  readonly channelId: string;
  readonly eventType: string;
  readonly payload: unknown;
  readonly occurredAtUtc: string;
  readonly contentType: string;
  readonly correlationId: string | null;
  readonly tenantId: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly metadata: Readonly<Record<string, string | number | boolean | null>>;
  readonly actorId: string | null;
}

/** `EventPublicationResult` (spec 2.4). */
export const eventPublicationResultSchema = z.object({
  publicationId: z.string(),
  channelId: z.string(),
  eventType: z.string(),
  outcome: z.literal('accepted'),
  acceptedAtUtc: z.string(),
  metadata: safeMetadataSchema,
});
export type EventPublicationResult = z.output<typeof eventPublicationResultSchema>;

/** Where a runtime state lives: in the shared store every replica reads, or in this process only. */
export const stateScopes = ['shared', 'process-local'] as const;
export type StateScope = (typeof stateScopes)[number];

export const publicationOutcomes = ['accepted', 'succeeded', 'failed', 'skipped'] as const;
export type PublicationOutcome = (typeof publicationOutcomes)[number];

/** Event publication runtime state (spec 2.4), one per publication id. */
export const eventPublicationStateSchema = z.object({
  publicationId: z.string(),
  channelId: z.string(),
  eventType: z.string(),
  outcome: z.enum(publicationOutcomes),
  observedAtUtc: z.string(),
  acceptedCount: z.number().int(),
  succeededCount: z.number().int(),
  failedCount: z.number().int(),
  skippedCount: z.number().int(),
  /** Subscription results of the latest run: matched, succeeded, failed, skipped. */
  subscriptionCounts: z.object({
    matched: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
  }),
  error: z.string().nullable(),
  metadata: safeMetadataSchema,
  /**
   * Where this state lives: `shared` (the engine's shared store provider: every replica reads the same) or
   * `process-local` (this process only: what it observed itself).
   */
  scope: z.enum(stateScopes),
});
export type EventPublicationState = z.output<typeof eventPublicationStateSchema>;

export const dispatchOutcomes = ['started', 'succeeded', 'failed', 'retry-scheduled', 'skipped'] as const;
export type DispatchOutcome = (typeof dispatchOutcomes)[number];

/** Event dispatch state (spec 2.4): the latest report of one outbox path. */
export const eventDispatchStateSchema = z.object({
  outboxId: z.string(),
  channelId: z.string().nullable(),
  outcome: z.enum(dispatchOutcomes),
  observedAtUtc: z.string(),
  messageId: z.string().nullable(),
  attempt: z.number().int(),
  startedCount: z.number().int(),
  succeededCount: z.number().int(),
  failedCount: z.number().int(),
  retryScheduledCount: z.number().int(),
  skippedCount: z.number().int(),
  /** True while the latest report scheduled a retry. */
  retryPending: z.boolean(),
  /** True when the latest report is a terminal failure (attempts exhausted). */
  terminalFailure: z.boolean(),
  terminalFailureCount: z.number().int(),
  error: z.string().nullable(),
  metadata: safeMetadataSchema,
  /**
   * Where this state lives: `shared` (the engine's shared store provider: every replica reads the same) or
   * `process-local` (this process only: what it observed itself).
   */
  scope: z.enum(stateScopes),
});
export type EventDispatchState = z.output<typeof eventDispatchStateSchema>;

/** Event dispatch runtime descriptor (spec 2.4). `summary` is null until a report exists. */
export const eventDispatchRuntimeSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  description: z.string(),
  ownership: z.object({
    executionOwnership: z.string(),
    dispatcherId: z.string(),
    outboxProvider: z.string(),
  }),
  outboxIds: z.array(z.string()),
  summary: z
    .object({
      totalReportCount: z.number().int(),
      retryPendingOutboxCount: z.number().int(),
      terminalFailureObservationCount: z.number().int(),
      terminalOutboxCount: z.number().int(),
      hasTerminalFailures: z.boolean(),
    })
    .nullable(),
  /** Where the summary's counts live (as the dispatch states): `shared` or `process-local`. */
  scope: z.enum(stateScopes),
});
export type EventDispatchRuntime = z.output<typeof eventDispatchRuntimeSchema>;

export const readinessStates = [
  'runtime-bound',
  'hosted-execution-linked',
  'application-managed-state',
  'declared-only',
] as const;

/** Event subscription readiness (spec 2.4, states of 3.2). */
export const eventSubscriptionReadinessSchema = z.object({
  subscriptionId: z.string(),
  readinessState: z.enum(readinessStates),
  executionOwnership: z.string(),
  executionMode: z.string(),
  executionRuntimeId: z.string().nullable(),
  reasons: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  /**
   * Always `process-local`: readiness says whether this process runs the subscription (its executors, its
   * engine run), and its `metadata` counts what this process executed.
   */
  scope: z.literal('process-local'),
});
export type EventSubscriptionReadiness = z.output<typeof eventSubscriptionReadinessSchema>;
