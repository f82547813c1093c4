import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type {
  JobDefinition,
  JobHandle,
  JobRunOutcome,
  JobState,
  JobTrigger,
  Logger,
  RuntimeStoryWriter,
} from '@corekit/abstractions';
import { isoAt, type Clock } from '../clock';
import { JobReporter, type RunDetails } from './job-reporter';
import { errorMessage, newSlot, slotState, validateJob, type ActiveRun, type JobSlot } from './job-slot';
import { engineRecordEventIds } from '../engine-record-event-ids';

/** How one run ended, as `onRun` sees it. */
export type JobRunResult = 'completed' | 'failed';

export interface JobSchedulerOptions {
  /** Timestamps in JobState and `nextRunAtUtc`; durations are measured with a monotonic clock instead. */
  readonly clock: Clock;
  /** Receives `job` entries: `started`, then `completed` or `failed` (and `abandoned` when stop gives up). */
  readonly story: RuntimeStoryWriter;
  /** Failed runs (level error) and runs abandoned at stop (level warn) are logged here. */
  readonly logger: Logger;
  /** Called once per finished run, for counters. An exception thrown here is logged and ignored. */
  readonly onRun?: (jobId: string, outcome: JobRunResult, durationMs: number) => void;
  /**
   * How long stop() waits for running runs after aborting their signals, when stop() is given no bound. Default
   * 10 000 ms; the engine passes `Engine:Shutdown:JobStopTimeout` to every stop.
   */
  readonly stopTimeoutMs?: number;
  /**
   * Event id of the failure and abandoned-run log records, overriding the engine's own: by default a failed run
   * logs 2031 (job-run-failed) and an abandoned one 2032 (job-run-abandoned), outside the spec's ranges.
   */
  readonly failureEventId?: number;
}

type Phase = 'idle' | 'started' | 'stopping' | 'stopped';

/**
 * The engine's one background-job scheduler. Rules it keeps:
 * - a job never has two runs at once: each job has at most one armed timer, disarmed when any run starts and
 *   re-armed (intervalMs later) when that run ends, so the interval counts from the end of the last run of any
 *   trigger. A manual run therefore also replaces a startup run whose delay has not elapsed yet;
 * - a manual trigger during a run answers `already-running` and touches nothing; before start() and from stop()
 *   on it answers `not-running`;
 * - timers are unref'd: the scheduler alone never keeps the process alive;
 * - stop() aborts every run's signal and waits up to `stopTimeoutMs`; a run still going then is logged and
 *   recorded as abandoned, yet stays "running" until it settles, so a restart does not start it twice;
 * - `runCount` counts finished runs; `iteration` counts started runs and keeps growing across restarts.
 */
export class JobScheduler {
  private readonly slots = new Map<string, JobSlot>();
  private phase: Phase = 'idle';
  private stopping: Promise<void> | null = null;
  private readonly stopTimeoutMs: number;
  private readonly reporter: JobReporter;

  constructor(private readonly options: JobSchedulerOptions) {
    this.stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
    const eventIds = {
      failed: options.failureEventId ?? engineRecordEventIds.jobRunFailed,
      abandoned: options.failureEventId ?? engineRecordEventIds.jobRunAbandoned,
    };
    this.reporter = new JobReporter(options.story, options.logger, eventIds, options.onRun);
  }

  /** True between start() and stop(). */
  get started(): boolean {
    return this.phase === 'started';
  }

  /** Registers a job (before or after start()); throws CoreError `JOB_INVALID` on a bad or duplicate id. */
  add<TResult>(job: JobDefinition<TResult>): JobHandle<TResult> {
    validateJob(job as JobDefinition<unknown>, this.slots);
    const slot = newSlot(job as JobDefinition<unknown>);
    this.slots.set(job.id, slot);
    if (this.phase === 'started') this.arm(slot, 'startup');
    return {
      id: job.id,
      trigger: () => this.trigger(slot) as Promise<JobRunOutcome<TResult>>,
      state: () => slotState(slot),
    };
  }

  /** Arms startup runs (after their delay) and interval runs. Calling it while started does nothing. */
  start(): void {
    if (this.phase === 'started') return;
    this.phase = 'started';
    this.stopping = null;
    for (const slot of this.slots.values()) this.arm(slot, 'startup');
  }

  /** Clears timers, aborts running runs and waits for them (at most `timeoutMs`, default `stopTimeoutMs`). */
  stop(timeoutMs: number = this.stopTimeoutMs): Promise<void> {
    if (this.stopping) return this.stopping;
    if (this.phase !== 'started') return Promise.resolve();
    this.phase = 'stopping';
    for (const slot of this.slots.values()) this.disarm(slot);
    const runs = [...this.slots.values()].flatMap((slot) => (slot.active ? [slot.active] : []));
    for (const run of runs) run.controller.abort(new Error('the job scheduler is stopping'));
    this.stopping = this.awaitRuns(runs, timeoutMs).finally(() => {
      if (this.phase === 'stopping') this.phase = 'stopped';
    });
    return this.stopping;
  }

  states(): JobState[] {
    return [...this.slots.values()].map(slotState);
  }

  private async awaitRuns(runs: ActiveRun[], timeoutMs: number): Promise<void> {
    if (runs.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const settled = Promise.all(runs.map((run) => run.settled)).then(() => 'settled' as const);
    const winner = await Promise.race([settled, timedOut]);
    clearTimeout(timer);
    if (winner === 'settled') return;
    for (const slot of this.slots.values()) {
      const run = slot.active;
      if (!run || !runs.includes(run)) continue;
      run.abandoned = true;
      this.reporter.abandoned(slot.job.id, run.details, timeoutMs);
    }
  }

  private async trigger(slot: JobSlot): Promise<JobRunOutcome> {
    // Stopped first: after stop() a run it stopped waiting for may still be settling.
    if (this.phase !== 'started') {
      const reason =
        this.phase === 'idle' ? 'the job scheduler has not been started' : 'the job scheduler is stopped';
      return { status: 'not-running', reason };
    }
    if (slot.active) return { status: 'already-running', runningRunId: slot.active.details.runId };
    return this.run(slot, 'manual');
  }

  /** Arms the slot's one timer: the startup run when asked and configured, else the next interval run. */
  private arm(slot: JobSlot, kind: 'startup' | 'interval'): void {
    if (this.phase !== 'started' || slot.active) return;
    this.disarm(slot);
    const { job } = slot;
    const startup = kind === 'startup' && job.runOnStartup === true;
    const delay = startup ? (job.startupDelayMs ?? 0) : job.intervalMs;
    if (delay === undefined) return;
    const trigger: JobTrigger = startup ? 'startup' : 'interval';
    slot.dueAt = this.options.clock.now() + delay;
    slot.timer = setTimeout(() => {
      slot.timer = null;
      slot.dueAt = null;
      // Timers are disarmed when a run starts, so this only guards against a stale callback.
      if (this.phase === 'started' && !slot.active) void this.run(slot, trigger);
    }, delay);
    slot.timer.unref();
  }

  private disarm(slot: JobSlot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.dueAt = null;
  }

  private run(slot: JobSlot, trigger: JobTrigger): Promise<JobRunOutcome> {
    this.disarm(slot);
    const { job } = slot;
    const iteration = ++slot.iterations;
    const runId = `${job.id}:${iteration}:${randomBytes(4).toString('hex')}`;
    const controller = new AbortController();
    const startedAt = performance.now();
    slot.lastTrigger = trigger;
    slot.lastStartedAtUtc = isoAt(this.options.clock.now());
    const details: RunDetails = {
      runId,
      iteration,
      trigger,
      ...(trigger === 'startup' ? { startupDelayMs: job.startupDelayMs ?? 0 } : {}),
      ...(job.owner ? { owner: job.owner } : {}),
    };
    this.reporter.started(job.id, details);
    // Active before the job runs: a job that throws synchronously finishes inside execute().
    const active: ActiveRun = { details, controller, settled: Promise.resolve(), abandoned: false };
    slot.active = active;
    const execute = async (): Promise<JobRunOutcome> => {
      let outcome: JobRunOutcome & { status: 'completed' | 'failed' };
      try {
        const result = await job.run({ jobId: job.id, iteration, trigger, runId, signal: controller.signal });
        outcome = { status: 'completed', runId, iteration, result };
      } catch (error) {
        outcome = { status: 'failed', runId, iteration, error: errorMessage(error) };
        this.reporter.failed(job.id, details, error);
      }
      this.finish(slot, active, outcome, Math.round(performance.now() - startedAt));
      return outcome;
    };
    active.settled = execute();
    return active.settled as Promise<JobRunOutcome>;
  }

  private finish(
    slot: JobSlot,
    run: ActiveRun,
    outcome: JobRunOutcome & { status: 'completed' | 'failed' },
    durationMs: number,
  ): void {
    slot.active = null;
    slot.runCount++;
    slot.lastCompletedAtUtc = isoAt(this.options.clock.now());
    slot.lastOutcome = outcome.status;
    slot.lastError = outcome.status === 'failed' ? outcome.error : null;
    if (outcome.status === 'failed') slot.failureCount++;
    this.reporter.finished(slot.job.id, run.details, outcome.status, durationMs, {
      error: outcome.status === 'failed' ? outcome.error : undefined,
      afterStopTimeout: run.abandoned,
    });
    this.arm(slot, 'interval');
  }
}
