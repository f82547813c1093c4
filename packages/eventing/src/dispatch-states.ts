import type { StoreMirror } from '@corekit/abstractions';
import type { DispatchOutcome, EventDispatchRuntime, EventDispatchState, StateScope } from './eventing-model';

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

/** What is kept per outbox: its latest state and the totals the dispatch runtime summarises. */
export interface StoredDispatchState {
  readonly state: Omit<EventDispatchState, 'scope'>;
  readonly totalReports: number;
  readonly terminalObservations: number;
}

/**
 * The kept state after `count` reports of one outcome at once (a batch of messages): the counters move by
 * `count`, the state shows `report` (the batch's last message).
 */
export function foldDispatchState(
  previous: StoredDispatchState | undefined,
  report: DispatchReport,
  count: number,
  observedAtUtc: string,
): StoredDispatchState {
  const before = previous?.state;
  const counters = {
    startedCount: before?.startedCount ?? 0,
    succeededCount: before?.succeededCount ?? 0,
    failedCount: before?.failedCount ?? 0,
    retryScheduledCount: before?.retryScheduledCount ?? 0,
    skippedCount: before?.skippedCount ?? 0,
  };
  (counters as Record<string, number>)[counterOf[report.outcome]] += count;
  const terminal = report.outcome === 'failed' && report.terminal === true;
  // A `started` report does not change the posture; every other report replaces it.
  const retryPending =
    report.outcome === 'started' ? (before?.retryPending ?? false) : report.outcome === 'retry-scheduled';
  const terminalFailure = report.outcome === 'started' ? (before?.terminalFailure ?? false) : terminal;
  return {
    state: {
      outboxId: report.outboxId,
      channelId: report.channelId,
      outcome: report.outcome,
      observedAtUtc,
      messageId: report.messageId,
      attempt: report.attempt,
      ...counters,
      retryPending,
      terminalFailure,
      terminalFailureCount: (before?.terminalFailureCount ?? 0) + (terminal ? count : 0),
      error: report.error ?? null,
      metadata: { ...(report.metadata ?? {}) },
    },
    totalReports: (previous?.totalReports ?? 0) + count,
    terminalObservations: (previous?.terminalObservations ?? 0) + (terminal ? count : 0),
  };
}

/** The posture changes from one kept state to the next (retry pending on or off, terminal failure on or off). */
function postureChanges(
  previous: StoredDispatchState | undefined,
  next: StoredDispatchState,
): DispatchPostureChange[] {
  const state = { ...next.state, scope: 'process-local' as const };
  const changes: DispatchPostureChange[] = [];
  if (next.state.retryPending !== (previous?.state.retryPending ?? false)) {
    changes.push({
      outboxId: state.outboxId,
      transition: next.state.retryPending ? 'retry-pending' : 'retry-cleared',
      state,
    });
  }
  if (next.state.terminalFailure !== (previous?.state.terminalFailure ?? false)) {
    changes.push({
      outboxId: state.outboxId,
      transition: next.state.terminalFailure ? 'terminal-failure' : 'recovered',
      state,
    });
  }
  return changes;
}

/**
 * Latest dispatch state per outbox plus the totals a dispatch runtime summarises. Without a shared store
 * provider it lives in this process (`scope: process-local`: the reports of this process's dispatch job);
 * with one (`useSharedStore`) in the engine store `eventing-dispatch-states`, where every replica's reports
 * add up under compare-and-set (`scope: shared`, read through a mirror that follows the store's change feed,
 * or reads the whole store every `SharedStateRefreshMilliseconds` without one). The durable truth (what is staged, claimed, retried) is the outbox itself.
 */
export class DispatchStateBook {
  private readonly states = new Map<string, StoredDispatchState>();
  private mirror: StoreMirror<StoredDispatchState> | null = null;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Keeps the states in a store every replica shares from now on. */
  useSharedStore(mirror: StoreMirror<StoredDispatchState>): void {
    this.mirror = mirror;
  }

  get scope(): StateScope {
    return this.mirror ? 'shared' : 'process-local';
  }

  /**
   * Records `count` reports of one outcome at once; answers the posture changes it made (at most one of each
   * kind), judged against the state before it (on a shared store: every replica's latest report).
   */
  async report(report: DispatchReport, count = 1): Promise<DispatchPostureChange[]> {
    const observedAtUtc = this.now().toISOString();
    if (!this.mirror) {
      const previous = this.states.get(report.outboxId);
      const next = foldDispatchState(previous, report, count, observedAtUtc);
      this.states.set(report.outboxId, next);
      return postureChanges(previous, next).map((change) => this.scoped(change));
    }
    let previous: StoredDispatchState | undefined;
    const written = await this.mirror.update(report.outboxId, (current) => {
      previous = current;
      return foldDispatchState(current, report, count, observedAtUtc);
    });
    return postureChanges(previous, written.value).map((change) => this.scoped(change));
  }

  list(): EventDispatchState[] {
    const scope = this.scope;
    return this.kept().map((kept) => ({ ...kept.state, scope }));
  }

  /** The Summary of a dispatch runtime owning these outboxes; null until a report exists. */
  summary(outboxIds: readonly string[]): EventDispatchRuntime['summary'] {
    const owned = this.kept().filter((kept) => outboxIds.includes(kept.state.outboxId));
    if (owned.length === 0) return null;
    const terminalObservations = owned.reduce((total, kept) => total + kept.terminalObservations, 0);
    return {
      totalReportCount: owned.reduce((total, kept) => total + kept.totalReports, 0),
      retryPendingOutboxCount: owned.filter((kept) => kept.state.retryPending).length,
      terminalFailureObservationCount: terminalObservations,
      terminalOutboxCount: owned.filter((kept) => kept.state.terminalFailure).length,
      hasTerminalFailures: terminalObservations > 0,
    };
  }

  private kept(): StoredDispatchState[] {
    return this.mirror ? this.mirror.values() : [...this.states.values()];
  }

  private scoped(change: DispatchPostureChange): DispatchPostureChange {
    return { ...change, state: { ...change.state, scope: this.scope } };
  }
}
