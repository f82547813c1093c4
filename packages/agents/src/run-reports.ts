import type { ApprovalState, ErrorSummary, OutcomeCounts, RunOutcome, StoredRun } from './run-model';
import { emptyCounts } from './run-model';

/** The facts a new run starts from. */
export interface NewRunFacts {
  readonly toolId: string;
  readonly runId: string;
  readonly sourceModuleId: string;
  readonly actorId: string;
  /** The authorized principal's subject of the request, when the host supplied one (never shown). */
  readonly requesterSubject: string | null;
  readonly correlationId: string;
  readonly attemptBase: number;
  readonly metadata: Record<string, string>;
}

/** A run that has no report yet (never stored as is: the first report is written over it). */
export function blankRun(facts: NewRunFacts, atUtc: string, previous?: StoredRun): StoredRun {
  return {
    ...facts,
    latestOutcome: 'accepted',
    observedAtUtc: atUtc,
    attempt: facts.attemptBase,
    outcomeCounts: previous ? { ...previous.outcomeCounts } : emptyCounts(),
    retryScheduledCount: previous?.retryScheduledCount ?? 0,
    totalReports: previous?.totalReports ?? 0,
    outputSummary: null,
    errorSummary: null,
    approval: null,
    completedAtUtc: previous?.completedAtUtc ?? null,
    duplicateCompleted: false,
    phase: 'running',
    pendingArguments: null,
    output: null,
  };
}

const countField: Record<RunOutcome, keyof OutcomeCounts> = {
  accepted: 'accepted',
  succeeded: 'succeeded',
  failed: 'failed',
  'retry-scheduled': 'retryScheduled',
  skipped: 'skipped',
  'approval-required': 'approvalRequired',
  denied: 'denied',
};

/** What one report changes besides the outcome, time and counters. */
export type ReportChanges = Partial<
  Pick<
    StoredRun,
    | 'attempt'
    | 'outputSummary'
    | 'errorSummary'
    | 'approval'
    | 'completedAtUtc'
    | 'duplicateCompleted'
    | 'phase'
    | 'pendingArguments'
    | 'output'
    | 'ownerReplicaId'
    | 'leaseExpiresAtUtc'
  >
>;

/** The run after one more report: outcome, time, the outcome's counter and the total. */
export function report(
  run: StoredRun,
  outcome: RunOutcome,
  atUtc: string,
  changes: ReportChanges = {},
): StoredRun {
  const outcomeCounts = {
    ...run.outcomeCounts,
    [countField[outcome]]: run.outcomeCounts[countField[outcome]] + 1,
  };
  return {
    ...run,
    duplicateCompleted: false,
    ...changes,
    latestOutcome: outcome,
    observedAtUtc: atUtc,
    outcomeCounts,
    retryScheduledCount: run.retryScheduledCount + (outcome === 'retry-scheduled' ? 1 : 0),
    totalReports: run.totalReports + 1,
  };
}

/** A pending approval requested now. */
export function pendingApproval(atUtc: string): ApprovalState {
  return { state: 'pending', requestedAtUtc: atUtc, decidedBy: null, decidedAtUtc: null, reason: null };
}

/** The approval after a decision. */
export function decidedApproval(
  approval: ApprovalState | null,
  state: 'approved' | 'denied',
  decidedBy: string,
  atUtc: string,
  reason: string | null,
): ApprovalState {
  return { state, requestedAtUtc: approval?.requestedAtUtc ?? atUtc, decidedBy, decidedAtUtc: atUtc, reason };
}

/** The error of a run a restart interrupted (retry state is process-local). */
export const interruptedError: ErrorSummary = {
  code: 'AGENT_TOOL_RUN_INTERRUPTED',
  message:
    'the process stopped while this run was executing or waiting to retry; retry state is process-local',
};
