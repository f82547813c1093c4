import type {
  DependencyCheckResult,
  DependencyHealthContributor,
  DependencyHealthEntry,
  HealthStatus,
} from '@corekit/abstractions';
import { staleAfterMs } from './dependency-check-results';

export interface Completed {
  readonly result: DependencyCheckResult;
  readonly timedOut: boolean;
  readonly checkedAt: number;
  /** Formatted once when the run completes, not on every read. */
  readonly checkedAtUtc: string;
  readonly durationMs: number;
}

/** One contributor's scheduling state inside the DependencyHealthScheduler. */
export interface Slot {
  readonly contributor: DependencyHealthContributor;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly staleAfterMs: number;
  last: Completed | null;
  /** True once 3004 was logged for the current last result; reset by the next completed run. */
  staleReported: boolean;
  /** The contributor's own promise while it has not settled (also after it was abandoned on timeout). */
  pendingCheck: Promise<unknown> | null;
  /** The scheduler's run (check raced against the timeout) while it is in progress. */
  currentRun: Promise<void> | null;
  timer: NodeJS.Timeout | null;
  consecutiveFailures: number;
  publishedStatus: HealthStatus | null;
}

export function createSlot(
  contributor: DependencyHealthContributor,
  intervalMs: number,
  timeoutMs: number,
  staleAfterIntervals: number,
): Slot {
  return {
    contributor,
    intervalMs,
    timeoutMs,
    staleAfterMs: staleAfterMs(intervalMs, timeoutMs, staleAfterIntervals),
    last: null,
    staleReported: false,
    pendingCheck: null,
    currentRun: null,
    timer: null,
    consecutiveFailures: 0,
    publishedStatus: null,
  };
}

/** The published entry of a slot at `now`: its last result, or Unhealthy when not checked yet or stale. */
export function slotEntry(slot: Slot, now: number): DependencyHealthEntry {
  // Written out field by field (no object spreads): this runs for every dependency on every health read.
  const { contributor, last } = slot;
  if (!last) {
    return {
      id: contributor.id,
      displayName: contributor.displayName,
      kind: contributor.kind,
      required: contributor.required,
      status: 'Unhealthy',
      description: 'not checked yet',
      error: null,
      data: {},
      checkedAtUtc: null,
      durationMs: null,
      timedOut: false,
      stale: false,
      refreshIntervalSeconds: slot.intervalMs / 1000,
      timeoutSeconds: slot.timeoutMs / 1000,
      consecutiveFailures: slot.consecutiveFailures,
    };
  }
  const age = now - last.checkedAt;
  const stale = age > slot.staleAfterMs;
  return {
    id: contributor.id,
    displayName: contributor.displayName,
    kind: contributor.kind,
    required: contributor.required,
    status: stale ? 'Unhealthy' : last.result.status,
    description: stale
      ? `last result is stale: checked ${Math.round(age / 1000)} s ago; a check should have completed within ${slot.staleAfterMs / 1000} s`
      : (last.result.description ?? null),
    error: last.result.error ?? null,
    data: last.result.data ?? {},
    checkedAtUtc: last.checkedAtUtc,
    durationMs: last.durationMs,
    timedOut: last.timedOut,
    stale,
    refreshIntervalSeconds: slot.intervalMs / 1000,
    timeoutSeconds: slot.timeoutMs / 1000,
    consecutiveFailures: slot.consecutiveFailures,
  };
}
