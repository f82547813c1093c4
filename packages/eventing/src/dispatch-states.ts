import type { DispatchOutcome, EventDispatchRuntime, EventDispatchState } from './eventing-model';

/** One dispatch report: what happened to one message on one outbox path. */
export interface DispatchReport {
  readonly outboxId: string;
  readonly channelId: string | null;
  readonly outcome: DispatchOutcome;
  readonly messageId: string | null;
  readonly attempt: number;
  /** True when the failure is final (attempts exhausted). */
  readonly terminal?: boolean;
  readonly error?: string | null;
  readonly metadata?: Readonly<Record<string, string | number | boolean | null>>;
}

/** A posture change worth a story entry (retry pending on or off, terminal failure on or off). */
export interface DispatchPostureChange {
  readonly outboxId: string;
  readonly transition: 'retry-pending' | 'retry-cleared' | 'terminal-failure' | 'recovered';
  readonly state: EventDispatchState;
}

const counterOf: Record<DispatchOutcome, keyof EventDispatchState> = {
  started: 'startedCount',
  succeeded: 'succeededCount',
  failed: 'failedCount',
  'retry-scheduled': 'retryScheduledCount',
  skipped: 'skippedCount',
};

/**
 * Latest dispatch state per outbox plus the totals a dispatch runtime summarises. Process-local: the
 * durable truth (what is staged, claimed, retried) is the outbox itself.
 */
export class DispatchStateBook {
  private readonly states = new Map<string, EventDispatchState>();
  private totalReports = 0;
  private terminalObservations = 0;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /**
   * Records `count` reports of one outcome at once (a batch of messages): the counters move by `count`, the
   * state shows `report` (the batch's last message), and the posture changes at most once.
   */
  report(report: DispatchReport, count = 1): DispatchPostureChange[] {
    const previous = this.states.get(report.outboxId);
    const counters = {
      startedCount: previous?.startedCount ?? 0,
      succeededCount: previous?.succeededCount ?? 0,
      failedCount: previous?.failedCount ?? 0,
      retryScheduledCount: previous?.retryScheduledCount ?? 0,
      skippedCount: previous?.skippedCount ?? 0,
    };
    (counters as Record<string, number>)[counterOf[report.outcome]] += count;
    const terminal = report.outcome === 'failed' && report.terminal === true;
    // A `started` report does not change the posture; every other report replaces it.
    const retryPending =
      report.outcome === 'started' ? (previous?.retryPending ?? false) : report.outcome === 'retry-scheduled';
    const terminalFailure = report.outcome === 'started' ? (previous?.terminalFailure ?? false) : terminal;
    const state: EventDispatchState = {
      outboxId: report.outboxId,
      channelId: report.channelId,
      outcome: report.outcome,
      observedAtUtc: this.now().toISOString(),
      messageId: report.messageId,
      attempt: report.attempt,
      ...counters,
      retryPending,
      terminalFailure,
      terminalFailureCount: (previous?.terminalFailureCount ?? 0) + (terminal ? count : 0),
      error: report.error ?? null,
      metadata: { ...(report.metadata ?? {}) },
    };
    this.states.set(report.outboxId, state);
    this.totalReports += count;
    if (terminal) this.terminalObservations += count;
    const changes: DispatchPostureChange[] = [];
    if (retryPending !== (previous?.retryPending ?? false)) {
      changes.push({
        outboxId: report.outboxId,
        transition: retryPending ? 'retry-pending' : 'retry-cleared',
        state,
      });
    }
    if (terminalFailure !== (previous?.terminalFailure ?? false)) {
      changes.push({
        outboxId: report.outboxId,
        transition: terminalFailure ? 'terminal-failure' : 'recovered',
        state,
      });
    }
    return changes;
  }

  list(): EventDispatchState[] {
    return [...this.states.values()];
  }

  /** The Summary of a dispatch runtime owning these outboxes; null until a report exists. */
  summary(outboxIds: readonly string[]): EventDispatchRuntime['summary'] {
    const owned = outboxIds.map((id) => this.states.get(id)).filter((state) => state !== undefined);
    if (owned.length === 0) return null;
    const terminalOutboxCount = owned.filter((state) => state.terminalFailure).length;
    return {
      totalReportCount: this.totalReports,
      retryPendingOutboxCount: owned.filter((state) => state.retryPending).length,
      terminalFailureObservationCount: this.terminalObservations,
      terminalOutboxCount,
      hasTerminalFailures: this.terminalObservations > 0,
    };
  }
}
