import {
  CoreError,
  engineEventIds,
  errorCode,
  type RuntimeState,
  type RuntimeStoryWriter,
} from '@corekit/abstractions';
import { isoAt, type Clock } from '../clock';
import type { EngineInstruments } from '../diagnostics';
import type { RedactingLogger } from '../logger';
import type { LifecycleState } from './lifecycle-state';
import { isRestartable } from './start-progress';

/** What the records write to. */
export interface LifecycleRecordParts {
  readonly state: LifecycleState;
  readonly clock: Clock;
  readonly story: RuntimeStoryWriter;
  readonly logger: RedactingLogger;
  readonly instruments: EngineInstruments;
  /** Called after every state change (health events). */
  readonly onStateChange: () => void;
}

/**
 * Everything the lifecycle tells about itself: state changes, start failures and stop errors, each written to
 * the shared state, the story, the engine's counters and the log (messages redacted) in one place, so that a
 * transition and its record cannot drift apart.
 */
export class LifecycleRecords {
  constructor(private readonly parts: LifecycleRecordParts) {}

  /** Moves the state, with a story entry, a transition count and the health notification. */
  setState(next: RuntimeState, reason: string): void {
    const lifecycle = this.parts.state;
    const previous = lifecycle.state;
    lifecycle.state = next;
    this.parts.story.record({
      kind: 'runtime',
      subjectId: null,
      transition: next.toLowerCase(),
      message: `Runtime ${previous} -> ${next}: ${reason}`,
      details: { from: previous, to: next },
    });
    this.parts.instruments.count('runtimeTransitions', { transition: next });
    this.parts.onStateChange();
  }

  /** Writes `lastFailure` (and the original error, the cause of a later ENGINE_NOT_RESTARTABLE) and the story entry. */
  failure(phase: string, moduleId: string | null, error: unknown, restartable = isRestartable(error)): void {
    const { state: lifecycle, clock } = this.parts;
    const now = clock.now();
    lifecycle.lastFailure = {
      phase,
      moduleId,
      code: errorCode(error, 'MODULE_FAILED'),
      message: this.redacted(error),
      occurredAtUtc: isoAt(now),
      restartable,
    };
    lifecycle.lastError = error;
    lifecycle.failedAt = now;
    this.parts.instruments.count('failures', { phase });
    this.parts.story.record({
      kind: 'failure',
      subjectId: moduleId,
      transition: 'failed',
      message: `Startup failed in ${phase}${moduleId ? ` (module ${moduleId})` : ''}: ${lifecycle.lastFailure.message}`,
      details: { ...lifecycle.lastFailure },
    });
  }

  /** The error log of the last failure (event 1003). */
  logFailure(): void {
    const failure = this.parts.state.lastFailure;
    if (!failure) return;
    this.log('error', engineEventIds.runtimeStartFailed, `Runtime failed to start: ${failure.message}`, {
      phase: failure.phase,
      moduleId: failure.moduleId,
      errorCode: failure.code,
      restartable: failure.restartable,
    });
  }

  /**
   * Throws ENGINE_NOT_RESTARTABLE, carrying the original failure, when the last start failed in a way no start
   * can cure (configuration, the host's own settings).
   */
  assertRestartable(action: 'start' | 'restart'): void {
    const { state, lastFailure, lastError } = this.parts.state;
    if (state !== 'Failed' || !lastFailure || lastFailure.restartable) return;
    throw new CoreError(
      'ENGINE_NOT_RESTARTABLE',
      `Cannot ${action}: the last start failed in phase ${lastFailure.phase} with ${lastFailure.code}, which a ${action} cannot cure (fix it and start a new process): ${lastFailure.message}`,
      { lastFailure },
      { cause: lastError },
    );
  }

  /** A part that failed to stop: recorded and logged, never thrown (the stop goes on). */
  stopError(kind: string, id: string, error: unknown): void {
    const message = this.redacted(error);
    this.parts.story.record({
      kind,
      subjectId: id,
      transition: 'stop-failed',
      message: `${id} failed to stop: ${message}`,
    });
    this.log('error', engineEventIds.runtimeStopping, `${id} failed to stop: ${message}`);
  }

  /** The error's message with every registered secret replaced. */
  redacted(error: unknown): string {
    return this.parts.logger.redact(String((error as Error)?.message ?? error));
  }

  log(
    level: 'info' | 'warn' | 'error',
    eventId: number,
    message: string,
    fields: Record<string, unknown> = {},
  ): void {
    this.parts.logger.log({
      level,
      eventId,
      category: 'engine',
      message,
      state: this.parts.state.state,
      ...fields,
    });
  }
}
