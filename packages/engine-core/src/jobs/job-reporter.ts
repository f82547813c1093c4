import {
  errorCode,
  type JobTrigger,
  type Logger,
  type RuntimeStoryWriter,
  type StoryEntryInput,
} from '@corekit/abstractions';
import { errorMessage } from './job-slot';

/** What identifies one run in the story and the logs. */
export interface RunDetails {
  readonly runId: string;
  readonly iteration: number;
  readonly trigger: JobTrigger;
  readonly startupDelayMs?: number;
  readonly owner?: string;
}

/**
 * The scheduler's output: `job` story entries, failure logs and the onRun callback. Nothing here throws: a story
 * writer or callback that fails is logged instead, since the callers include timer callbacks.
 */
export class JobReporter {
  constructor(
    private readonly story: RuntimeStoryWriter,
    private readonly logger: Logger,
    private readonly eventIds: { readonly failed: number; readonly abandoned: number },
    private readonly onRun?: (jobId: string, outcome: 'completed' | 'failed', durationMs: number) => void,
  ) {}

  started(jobId: string, details: RunDetails): void {
    this.record({
      kind: 'job',
      subjectId: jobId,
      transition: 'started',
      message: `Job ${jobId} started (${details.trigger})`,
      details: { ...details },
    });
  }

  failed(jobId: string, details: RunDetails, error: unknown): void {
    this.logger.log({
      level: 'error',
      eventId: this.eventIds.failed,
      category: 'jobs',
      message: `Job ${jobId} run ${details.runId} failed: ${errorMessage(error)}`,
      jobId,
      runId: details.runId,
      iteration: details.iteration,
      trigger: details.trigger,
      errorCode: errorCode(error),
    });
  }

  /** `error` is the failure message; `afterStopTimeout` marks a run stop() had stopped waiting for. */
  finished(
    jobId: string,
    details: RunDetails,
    outcome: 'completed' | 'failed',
    durationMs: number,
    extra: { error?: string; afterStopTimeout: boolean },
  ): void {
    this.record({
      kind: 'job',
      subjectId: jobId,
      transition: outcome,
      message: `Job ${jobId} ${outcome} in ${durationMs} ms`,
      details: {
        ...details,
        durationMs,
        ...(extra.error !== undefined ? { error: extra.error } : {}),
        ...(extra.afterStopTimeout ? { afterStopTimeout: true } : {}),
      },
    });
    try {
      this.onRun?.(jobId, outcome, durationMs);
    } catch (error) {
      this.internal(`onRun callback threw for job ${jobId}: ${errorMessage(error)}`);
    }
  }

  abandoned(jobId: string, details: RunDetails, stopTimeoutMs: number): void {
    const message = `Job ${jobId} run ${details.runId} did not stop within ${stopTimeoutMs} ms; no longer waiting for it`;
    this.logger.log({
      level: 'warn',
      eventId: this.eventIds.abandoned,
      category: 'jobs',
      message,
      jobId,
      runId: details.runId,
    });
    this.record({ kind: 'job', subjectId: jobId, transition: 'abandoned', message, details: { ...details } });
  }

  private record(entry: StoryEntryInput): void {
    try {
      this.story.record(entry);
    } catch (error) {
      this.internal(`could not record a job story entry: ${errorMessage(error)}`);
    }
  }

  private internal(message: string): void {
    this.logger.log({ level: 'error', eventId: this.eventIds.failed, category: 'jobs', message });
  }
}
