import type { DependencyHealthEntry } from '@corekit/abstractions';
import { contactBound } from './console-store';
import { shownState, staleAfterMs } from './dependency-status';

const checkedAt = Date.parse('2026-11-26T10:00:00Z');

function entry(patch: Partial<DependencyHealthEntry> = {}): DependencyHealthEntry {
  return {
    id: 'orders-db',
    displayName: 'Orders database',
    kind: 'PostgreSql',
    required: true,
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

describe('the state the console shows', () => {
  it('labels timed out, failed and degraded differently', () => {
    expect(shownState(entry({ status: 'Unhealthy', timedOut: true }), checkedAt, true)).toBe('timed-out');
    expect(shownState(entry({ status: 'Unhealthy' }), checkedAt, true)).toBe('failed');
    expect(shownState(entry({ status: 'Degraded' }), checkedAt, true)).toBe('degraded');
    expect(shownState(entry(), checkedAt, true)).toBe('healthy');
    expect(shownState(entry({ checkedAtUtc: null }), checkedAt, true)).toBe('pending');
  });

  it('never shows Healthy past the staleness bound: Stale while the host answers, Unknown once it stopped', () => {
    const bound = staleAfterMs(entry());
    expect(bound).toBe(45_000);
    expect(shownState(entry(), checkedAt + bound, true)).toBe('healthy');
    expect(shownState(entry(), checkedAt + bound + 1, true)).toBe('stale');
    expect(shownState(entry(), checkedAt + bound + 1, false)).toBe('unknown');
    expect(shownState(entry({ stale: true, status: 'Unhealthy' }), checkedAt, true)).toBe('stale');
  });

  it('turns every result Stale at once when the host stops answering, Unknown past the bound', () => {
    expect(shownState(entry(), checkedAt, false)).toBe('stale');
    expect(shownState(entry({ status: 'Unhealthy' }), checkedAt, false)).toBe('stale');
    expect(shownState(entry(), checkedAt + staleAfterMs(entry()) + 1, false)).toBe('unknown');
  });

  it('uses the engine bound: interval plus timeout plus 1 s when that is longer than three intervals', () => {
    expect(staleAfterMs(entry({ refreshIntervalSeconds: 1, timeoutSeconds: 5 }))).toBe(7000);
  });
});

describe('the contact bound of the frozen-host probe', () => {
  it('asks the host early enough that the banner shows before any row passes its bound', () => {
    // Checks every second, 2 s budget: bound 4 s. A row's last check may be one interval before the last
    // contact; silence + deadline + that interval + the watchdog's 250 ms tick stay under the bound.
    const rows = [entry({ refreshIntervalSeconds: 1, timeoutSeconds: 2 })];
    const { silenceMs, deadlineMs } = contactBound(rows);
    expect(silenceMs).toBe(1500);
    expect(silenceMs + deadlineMs + 1000 + 250).toBeLessThan(staleAfterMs(rows[0]));
    expect(contactBound([])).toEqual({ silenceMs: 30_000, deadlineMs: 5000 });
  });
});
