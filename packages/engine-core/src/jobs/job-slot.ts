import {
  CoreError,
  isIdentifier,
  type JobDefinition,
  type JobState,
  type JobTrigger,
} from '@corekit/abstractions';
import { isoAt } from '../clock';
import type { RunDetails } from './job-reporter';

/** setTimeout fires at once (with a warning) past this many milliseconds, so longer delays are refused. */
export const maximumDelayMs = 2_147_483_647;

/** A run in progress (also after stop() gave up waiting for it: it stays here until it settles). */
export interface ActiveRun {
  readonly details: RunDetails;
  readonly controller: AbortController;
  settled: Promise<unknown>;
  abandoned: boolean;
}

/** The scheduler's book-keeping for one registered job. */
export interface JobSlot {
  readonly job: JobDefinition<unknown>;
  /** The one armed timer (startup or interval); never armed while a run is in progress. */
  timer: NodeJS.Timeout | null;
  /** Epoch milliseconds (scheduler clock) the armed timer is due at. */
  dueAt: number | null;
  active: ActiveRun | null;
  iterations: number;
  runCount: number;
  failureCount: number;
  lastTrigger: JobTrigger | null;
  lastStartedAtUtc: string | null;
  lastCompletedAtUtc: string | null;
  lastOutcome: 'completed' | 'failed' | null;
  lastError: string | null;
}

function invalid(message: string, jobId: unknown): CoreError {
  return new CoreError('JOB_INVALID', message, { jobId: typeof jobId === 'string' ? jobId : null });
}

function checkDelay(
  job: JobDefinition<unknown>,
  key: 'intervalMs' | 'startupDelayMs',
  minimum: number,
): void {
  const value = job[key];
  if (value === undefined) return;
  const ok =
    typeof value === 'number' && Number.isFinite(value) && value >= minimum && value <= maximumDelayMs;
  if (!ok) {
    const bound = minimum === 0 ? '>= 0' : '> 0';
    throw invalid(
      `Job "${job.id}": ${key} must be a number of milliseconds ${bound} and <= ${maximumDelayMs}, got ${String(value)}`,
      job.id,
    );
  }
}

/** Validates a registration; throws CoreError `JOB_INVALID` naming the job and the field. */
export function validateJob(job: JobDefinition<unknown>, registered: ReadonlyMap<string, JobSlot>): void {
  if (!isIdentifier(job?.id)) {
    throw invalid(
      `Job id ${JSON.stringify(job?.id)} is not an identifier: it must start with a letter or digit and hold only letters, digits, . _ : - (at most 200)`,
      job?.id,
    );
  }
  if (registered.has(job.id)) throw invalid(`Job "${job.id}" is already registered`, job.id);
  if (typeof job.run !== 'function') throw invalid(`Job "${job.id}": run must be a function`, job.id);
  checkDelay(job, 'intervalMs', Number.MIN_VALUE);
  checkDelay(job, 'startupDelayMs', 0);
}

export function newSlot(job: JobDefinition<unknown>): JobSlot {
  return {
    job,
    timer: null,
    dueAt: null,
    active: null,
    iterations: 0,
    runCount: 0,
    failureCount: 0,
    lastTrigger: null,
    lastStartedAtUtc: null,
    lastCompletedAtUtc: null,
    lastOutcome: null,
    lastError: null,
  };
}

export function slotState(slot: JobSlot): JobState {
  const { job } = slot;
  return {
    id: job.id,
    owner: job.owner ?? null,
    intervalMs: job.intervalMs ?? null,
    runOnStartup: job.runOnStartup ?? false,
    startupDelayMs: job.startupDelayMs ?? 0,
    running: slot.active !== null,
    runCount: slot.runCount,
    failureCount: slot.failureCount,
    lastTrigger: slot.lastTrigger,
    lastStartedAtUtc: slot.lastStartedAtUtc,
    lastCompletedAtUtc: slot.lastCompletedAtUtc,
    lastOutcome: slot.lastOutcome,
    lastError: slot.lastError,
    nextRunAtUtc: slot.dueAt === null ? null : isoAt(slot.dueAt),
  };
}

/** The message of a thrown value, never its stack. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  return `non-error value thrown: ${typeof error}`;
}
