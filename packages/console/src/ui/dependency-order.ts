import type { DependencyHealthEntry } from '@corekit/abstractions';
import type { SinceState } from './console-store';
import { shownState, staleAfterMs, type ShownState } from './dependency-status';

/** A dependency as the overview lists it: its entry, what it shows now, and since when (failing or degraded). */
export interface ShownEntry {
  readonly entry: DependencyHealthEntry;
  readonly shown: ShownState;
  readonly sinceUtc: string | null;
}

/** Incidents first: failed and timed out, then degraded, then what is not known, then healthy. */
export const rank: Readonly<Record<ShownState, number>> = {
  failed: 0,
  'timed-out': 0,
  degraded: 1,
  stale: 2,
  unknown: 2,
  pending: 3,
  healthy: 4,
};

/** Names compared by one collator made once (`localeCompare` builds one per call). */
const byName = new Intl.Collator();

/**
 * Every dependency with its shown state, in both orders, and the time until which that stays true. The shown
 * state moves with the clock only when a result passes its staleness bound, so `validUntilMs` is the earliest
 * such moment: the overview's per-second tick reuses the whole listing until then instead of recomputing and
 * re-sorting 1,000 rows every second.
 */
export interface DependencyListing {
  readonly all: readonly ShownEntry[];
  readonly incidentsFirst: readonly ShownEntry[];
  readonly byName: readonly ShownEntry[];
  readonly validUntilMs: number;
}

/** One pass over the entries: the shown states, both orders (names compared once per listing), the validity. */
export function listDependencies(
  dependencies: readonly DependencyHealthEntry[],
  since: Readonly<Record<string, SinceState>>,
  nowMs: number,
  hostAnswering: boolean,
): DependencyListing {
  let validUntilMs = Number.POSITIVE_INFINITY;
  const all = dependencies.map((entry): ShownEntry => {
    if (entry.checkedAtUtc !== null) {
      const boundAtMs = Date.parse(entry.checkedAtUtc) + staleAfterMs(entry);
      if (boundAtMs >= nowMs) validUntilMs = Math.min(validUntilMs, boundAtMs);
    }
    return {
      entry,
      shown: shownState(entry, nowMs, hostAnswering),
      sinceUtc: since[entry.id]?.sinceUtc ?? null,
    };
  });
  const named = [...all].sort((a, b) => byName.compare(a.entry.displayName, b.entry.displayName));
  const position = new Map(named.map((item, index) => [item, index]));
  const incidentsFirst = [...all].sort(
    (a, b) =>
      rank[a.shown] - rank[b.shown] ||
      // ISO times: code-unit order is time order.
      ((a.sinceUtc ?? '') < (b.sinceUtc ?? '') ? -1 : (a.sinceUtc ?? '') > (b.sinceUtc ?? '') ? 1 : 0) ||
      position.get(a)! - position.get(b)!,
  );
  return { all, incidentsFirst, byName: named, validUntilMs };
}

/** The rows matching a filter (id, name, kind or shown state, case-insensitive), in the listing's order. */
export function filterListing(items: readonly ShownEntry[], filter: string): readonly ShownEntry[] {
  const needle = filter.trim().toLowerCase();
  if (!needle) return items;
  return items.filter((item) =>
    `${item.entry.id} ${item.entry.displayName} ${item.entry.kind} ${item.shown}`
      .toLowerCase()
      .includes(needle),
  );
}

/** "3 failed (1 timed out) · 2 degraded · 1 stale · 994 healthy": what the list holds, worst first. */
export function countsText(items: readonly ShownEntry[]): string {
  const counts: Record<ShownState, number> = {
    failed: 0,
    'timed-out': 0,
    degraded: 0,
    stale: 0,
    unknown: 0,
    pending: 0,
    healthy: 0,
  };
  for (const item of items) counts[item.shown] += 1;
  const failed = counts.failed + counts['timed-out'];
  const timedOut = counts['timed-out'];
  const staleOrUnknown = counts.stale + counts.unknown;
  const parts = [
    failed ? `${failed} failed${timedOut ? ` (${timedOut} timed out)` : ''}` : '',
    counts.degraded ? `${counts.degraded} degraded` : '',
    staleOrUnknown ? `${staleOrUnknown} stale or unknown` : '',
    counts.pending ? `${counts.pending} not checked yet` : '',
    counts.healthy ? `${counts.healthy} healthy` : '',
  ].filter(Boolean);
  return parts.join(' · ') || 'no dependency';
}
