import type { DependencyHealthEntry } from '@corekit/abstractions';

/**
 * What the console shows for a dependency. Timed out, failed and degraded are distinct; a result older than
 * its staleness bound, or any result while the host is not answering past that bound, is never Healthy.
 */
export type ShownState = 'healthy' | 'degraded' | 'failed' | 'timed-out' | 'stale' | 'unknown' | 'pending';

export const stateLabels: Readonly<Record<ShownState, string>> = {
  healthy: 'Healthy',
  degraded: 'Degraded',
  failed: 'Failed',
  'timed-out': 'Timed out',
  stale: 'Stale',
  unknown: 'Unknown',
  pending: 'Not checked yet',
};

/** The engine's bound: the longer of three intervals and one interval plus the timeout plus 1 s. */
export function staleAfterMs(entry: DependencyHealthEntry): number {
  const interval = entry.refreshIntervalSeconds * 1000;
  return Math.max(interval + entry.timeoutSeconds * 1000 + 1000, 3 * interval);
}

/**
 * While the host answers: the reported state, Stale past the bound. Once it stopped answering nothing is current:
 * Stale (the last result, no longer confirmed) within the bound, Unknown past it.
 */
export function shownState(entry: DependencyHealthEntry, nowMs: number, hostAnswering: boolean): ShownState {
  if (entry.checkedAtUtc === null) return hostAnswering ? 'pending' : 'unknown';
  const age = nowMs - Date.parse(entry.checkedAtUtc);
  if (age > staleAfterMs(entry)) return hostAnswering ? 'stale' : 'unknown';
  if (!hostAnswering || entry.stale) return 'stale';
  if (entry.timedOut) return 'timed-out';
  if (entry.status === 'Unhealthy') return 'failed';
  if (entry.status === 'Degraded') return 'degraded';
  return 'healthy';
}

export function outcomeState(outcome: string): ShownState {
  return outcome === 'healthy' || outcome === 'degraded' || outcome === 'failed' || outcome === 'timed-out'
    ? outcome
    : 'unknown';
}
