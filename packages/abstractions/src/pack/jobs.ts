/**
 * Background jobs: one scheduler for recurring pack work (reindexing, retry runners, polling, CDC pumps).
 * A job never runs twice at once; a manual trigger that overlaps a run answers `already-running`; timers
 * are unref'd; the scheduler stops and awaits running jobs on shutdown; every run is in the runtime story.
 */

/** What a run receives. */
export interface JobRunContext {
  readonly jobId: string;
  /** Increases by one per run of this job in this process. */
  readonly iteration: number;
  /** `startup`, `interval` or `manual`. */
  readonly trigger: JobTrigger;
  /** A unique id of this run (`<jobId>:<iteration>:<random>`), for correlation. */
  readonly runId: string;
  /** Aborted when the engine stops; a run must stop promptly then. */
  readonly signal: AbortSignal;
}

export type JobTrigger = 'startup' | 'interval' | 'manual';

/** A job's registration. */
export interface JobDefinition<TResult = unknown> {
  readonly id: string;
  readonly displayName?: string;
  /** Milliseconds between the end of one run and the start of the next; omit for manual-only jobs. */
  readonly intervalMs?: number;
  /** Run once as soon as the engine has started. Default false. */
  readonly runOnStartup?: boolean;
  /** Delay before the startup run, in milliseconds. Default 0. */
  readonly startupDelayMs?: number;
  /** Who registered it (a pack id), for the story. */
  readonly owner?: string;
  run(context: JobRunContext): Promise<TResult>;
}

/** The outcome of one trigger. */
export type JobRunOutcome<TResult = unknown> =
  | {
      readonly status: 'completed';
      readonly runId: string;
      readonly iteration: number;
      readonly result: TResult;
    }
  | { readonly status: 'failed'; readonly runId: string; readonly iteration: number; readonly error: string }
  | { readonly status: 'already-running'; readonly runningRunId: string }
  | { readonly status: 'not-running'; readonly reason: string };

/** The live state of one job, for surfaces. */
export interface JobState {
  readonly id: string;
  readonly owner: string | null;
  readonly intervalMs: number | null;
  readonly runOnStartup: boolean;
  readonly startupDelayMs: number;
  readonly running: boolean;
  readonly runCount: number;
  readonly failureCount: number;
  readonly lastTrigger: JobTrigger | null;
  readonly lastStartedAtUtc: string | null;
  readonly lastCompletedAtUtc: string | null;
  readonly lastOutcome: 'completed' | 'failed' | null;
  readonly lastError: string | null;
  readonly nextRunAtUtc: string | null;
}

/** A registered job: trigger it by hand or read its state. */
export interface JobHandle<TResult = unknown> {
  readonly id: string;
  /**
   * Runs the job now unless it is running (answers `already-running` with the running run's id and leaves
   * everything untouched) or the engine is not started (`not-running`).
   */
  trigger(): Promise<JobRunOutcome<TResult>>;
  state(): JobState;
}
