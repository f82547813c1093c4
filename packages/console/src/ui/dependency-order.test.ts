import type { DependencyHealthEntry } from '@corekit/abstractions';
import { mergeStrips, type Sample } from './console-store';
import { countsText, filterListing, listDependencies } from './dependency-order';
import { staleAfterMs } from './dependency-status';

const checkedAt = Date.parse('2026-11-26T10:00:00Z');

function entry(id: string, patch: Partial<DependencyHealthEntry> = {}): DependencyHealthEntry {
  return {
    id,
    displayName: id,
    kind: 'Http',
    required: false,
    status: 'Healthy',
    description: null,
    error: null,
    data: {},
    checkedAtUtc: new Date(checkedAt).toISOString(),
    durationMs: 4,
    timedOut: false,
    stale: false,
    refreshIntervalSeconds: 15,
    timeoutSeconds: 5,
    consecutiveFailures: 0,
    ...patch,
  };
}

const sample = (minute: number): Sample => ({
  checkedAtUtc: new Date(checkedAt + minute * 60_000).toISOString(),
  status: 'Healthy',
  outcome: 'healthy',
  durationMs: 3,
});

describe("the overview's listing", () => {
  const entries = [
    entry('c-api'),
    entry('b-api', { status: 'Degraded' }),
    entry('a-api'),
    entry('d-api', { status: 'Unhealthy' }),
    entry('e-api', { status: 'Unhealthy' }),
  ];
  const since = {
    'd-api': { outcome: 'failed', sinceUtc: '2026-11-26T09:50:00.000Z' },
    'e-api': { outcome: 'failed', sinceUtc: '2026-11-26T09:40:00.000Z' },
  };

  it('lists incidents first (the longest failing first), then by name; the other order by name alone', () => {
    const listing = listDependencies(entries, since, checkedAt, true);
    expect(listing.incidentsFirst.map((item) => item.entry.id)).toEqual([
      'e-api',
      'd-api',
      'b-api',
      'a-api',
      'c-api',
    ]);
    expect(listing.byName.map((item) => item.entry.id)).toEqual([
      'a-api',
      'b-api',
      'c-api',
      'd-api',
      'e-api',
    ]);
    expect(countsText(listing.all)).toBe('2 failed · 1 degraded · 2 healthy');
    expect(filterListing(listing.incidentsFirst, ' DEGRADED ').map((item) => item.entry.id)).toEqual([
      'b-api',
    ]);
  });

  it('stays valid until the first staleness bound ahead, after which a row is Stale', () => {
    const later = entry('later', { checkedAtUtc: new Date(checkedAt + 10_000).toISOString() });
    const listing = listDependencies([entries[0]!, later], {}, checkedAt + 10_000, true);
    expect(listing.validUntilMs).toBe(checkedAt + staleAfterMs(entries[0]!));
    const past = listDependencies([entries[0]!, later], {}, listing.validUntilMs + 1, true);
    expect(past.all.map((item) => item.shown)).toEqual(['stale', 'healthy']);
    expect(past.validUntilMs).toBe(checkedAt + 10_000 + staleAfterMs(later));
  });
});

describe('history strips loaded after the first paint', () => {
  it('keep the checks pushed while the strips were on their way, 30 at most', () => {
    const loaded = { 'a-api': Array.from({ length: 30 }, (_, minute) => sample(minute)) };
    const pushed = { 'a-api': [sample(29), sample(30)], 'b-api': [sample(31)] };
    const merged = mergeStrips(loaded, pushed);
    expect(merged['a-api']).toHaveLength(30);
    expect(merged['a-api']!.at(-1)).toEqual(sample(30));
    expect(merged['a-api']![0]).toEqual(sample(1));
    expect(merged['b-api']).toEqual([sample(31)]);
  });
});
