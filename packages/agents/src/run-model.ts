import { z } from 'zod';

/**
 * Outcomes a run report carries (spec 3.3): `accepted` (an attempt is executing), `succeeded`, `failed`
 * (terminal: the last attempt failed or the failure was not retryable), `retry-scheduled`, `skipped` (a
 * duplicate of a completed run suppressed by idempotency), `approval-required` and `denied`. The last two are
 * policy decisions, never executor failures.
 */
export const runOutcomes = [
  'accepted',
  'succeeded',
  'failed',
  'retry-scheduled',
  'skipped',
  'approval-required',
  'denied',
] as const;
export type RunOutcome = (typeof runOutcomes)[number];

/**
 * Where a stored run stands. `running` and `retry-wait` belong to the replica executing the run (its owner,
 * under a lease): they do not survive that process (retry is process-local).
 */
export type RunPhase = 'running' | 'retry-wait' | 'waiting-approval' | 'finished';

const errorSummarySchema = z.object({
  /** Stable code: the executor's own, or AGENT_TOOL_TIMEOUT, AGENT_TOOL_EXECUTOR_FAILED, AGENT_TOOL_OUTPUT_TOO_LARGE... */
  code: z.string(),
  /** Redacted, bounded to `SummaryMaxLength`. */
  message: z.string(),
});
export type ErrorSummary = z.infer<typeof errorSummarySchema>;

const approvalSchema = z.object({
  state: z.enum(['pending', 'approved', 'denied']),
  requestedAtUtc: z.string(),
  decidedBy: z.string().nullable(),
  decidedAtUtc: z.string().nullable(),
  /** Bounded and redacted. */
  reason: z.string().nullable(),
});
export type ApprovalState = z.infer<typeof approvalSchema>;

const outcomeCountsSchema = z.object({
  accepted: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  retryScheduled: z.number().int(),
  skipped: z.number().int(),
  approvalRequired: z.number().int(),
  approved: z.number().int(),
  denied: z.number().int(),
});
export type OutcomeCounts = z.infer<typeof outcomeCountsSchema>;

export function emptyCounts(): OutcomeCounts {
  return {
    accepted: 0,
    succeeded: 0,
    failed: 0,
    retryScheduled: 0,
    skipped: 0,
    approvalRequired: 0,
    approved: 0,
    denied: 0,
  };
}

/** One entry of `/engine/agent-tool-runs` (spec 2.4 "Agent tool run"). Arguments are never part of it. */
export const agentToolRunSchema = z.object({
  toolId: z.string(),
  runId: z.string(),
  sourceModuleId: z.string(),
  latestOutcome: z.enum(runOutcomes),
  observedAtUtc: z.string(),
  actorId: z.string(),
  correlationId: z.string(),
  /** Attempt number of the latest report. */
  attempt: z.number().int(),
  outcomeCounts: outcomeCountsSchema,
  retryScheduledCount: z.number().int(),
  totalReports: z.number().int(),
  outputSummary: z.string().nullable(),
  errorSummary: errorSummarySchema.nullable(),
  metadata: z.record(z.string(), z.string()),
  approval: approvalSchema.nullable(),
  /** Time of the latest success (the start of the idempotency window). */
  completedAtUtc: z.string().nullable(),
  /**
   * The replica (engine instance) executing the run while it is executing or waiting to retry, else null.
   * Its lease ends at `leaseExpiresAtUtc` unless renewed; after that another replica interrupts the run.
   */
  ownerReplicaId: z.string().nullable(),
  leaseExpiresAtUtc: z.string().nullable(),
  requiresApproval: z.boolean(),
  retryPending: z.boolean(),
  duplicateCompleted: z.boolean(),
  terminalFailure: z.boolean(),
  isTerminal: z.boolean(),
});
export type AgentToolRun = z.infer<typeof agentToolRunSchema>;

/** The stored form: the catalog entry's facts plus what resuming needs (never shown). */
export interface StoredRun extends Omit<
  AgentToolRun,
  | 'requiresApproval'
  | 'retryPending'
  | 'terminalFailure'
  | 'isTerminal'
  | 'ownerReplicaId'
  | 'leaseExpiresAtUtc'
> {
  /** Absent in runs stored before leases existed (read as null: no owner, lease expired). */
  readonly ownerReplicaId?: string | null;
  readonly leaseExpiresAtUtc?: string | null;
  readonly phase: RunPhase;
  /** The `arguments` string, held only while the run waits for approval. */
  readonly pendingArguments: string | null;
  /** The first successful output, held only when idempotency is enabled (answered to duplicates). */
  readonly output: unknown;
  /** The request's starting attempt number (default 1). */
  readonly attemptBase: number;
  /** The requesting principal's subject (absent in runs stored before it existed); decides separation of duties. */
  readonly requesterSubject?: string | null;
}

/** Presents a stored run as a catalog entry (flags derived from the latest report). */
export function presentRun(run: StoredRun): AgentToolRun {
  const {
    phase: _phase,
    pendingArguments: _pending,
    output: _output,
    attemptBase: _base,
    requesterSubject: _requester,
    ...facts
  } = run;
  const outcome = run.latestOutcome;
  return {
    ...facts,
    ownerReplicaId: run.ownerReplicaId ?? null,
    leaseExpiresAtUtc: run.leaseExpiresAtUtc ?? null,
    requiresApproval: outcome === 'approval-required',
    retryPending: outcome === 'retry-scheduled',
    duplicateCompleted: outcome === 'skipped' && run.duplicateCompleted,
    terminalFailure: outcome === 'failed',
    isTerminal:
      outcome === 'succeeded' || outcome === 'failed' || outcome === 'denied' || outcome === 'skipped',
  };
}

/**
 * The answer of a run request or an approval decision (`AgentToolExecutionResult`). See the README for
 * each field; `output` is the executor's value (or the first run's value for a suppressed duplicate), null
 * for every other outcome.
 */
export const agentToolExecutionResultSchema = z.object({
  toolId: z.string(),
  runId: z.string(),
  outcome: z.enum(runOutcomes),
  attempt: z.number().int(),
  attemptsThisRequest: z.number().int(),
  retryScheduledCount: z.number().int(),
  output: z.unknown(),
  outputSummary: z.string().nullable(),
  error: errorSummarySchema.nullable(),
  actorId: z.string(),
  correlationId: z.string(),
  observedAtUtc: z.string(),
  completedAtUtc: z.string().nullable(),
  approval: approvalSchema.nullable(),
  requiresApproval: z.boolean(),
  duplicateCompleted: z.boolean(),
  terminalFailure: z.boolean(),
  isTerminal: z.boolean(),
});
export type AgentToolExecutionResult = z.infer<typeof agentToolExecutionResultSchema>;

/** Builds the result of a request from the run as it stands after the request. */
export function resultOf(
  run: StoredRun,
  attemptsThisRequest: number,
  output: unknown,
): AgentToolExecutionResult {
  const entry = presentRun(run);
  return {
    toolId: run.toolId,
    runId: run.runId,
    outcome: run.latestOutcome,
    attempt: run.attempt,
    attemptsThisRequest,
    retryScheduledCount: run.retryScheduledCount,
    output: output ?? null,
    outputSummary: run.outputSummary,
    error: run.errorSummary,
    actorId: run.actorId,
    correlationId: run.correlationId,
    observedAtUtc: run.observedAtUtc,
    completedAtUtc: run.completedAtUtc,
    approval: run.approval,
    requiresApproval: entry.requiresApproval,
    duplicateCompleted: entry.duplicateCompleted,
    terminalFailure: entry.terminalFailure,
    isTerminal: entry.isTerminal,
  };
}

/** Tool run request (spec 2.4). Defaults (run id, actor, correlation id, attempt) are filled by the route. */
export const toolRunRequestSchema = z
  .object({
    runId: z
      .string()
      .max(200)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'letters, digits, . _ : - only')
      .optional(),
    actorId: z.string().min(1).max(200).optional(),
    correlationId: z.string().min(1).max(200).optional(),
    attempt: z.number().int().min(1).max(1000).optional(),
    arguments: z.string().optional(),
    metadata: z.record(z.string().max(64), z.string().max(200)).optional(),
  })
  .strict();
export type ToolRunRequest = z.infer<typeof toolRunRequestSchema>;
