import type { AlertState, SilenceEntry, SilenceRecord } from './alerts-model';
import { utc, utcOrNull } from './alerts-model';

/** `pending` before its start, `active` until its end or an operator expires it, then `expired`. */
export function silenceState(silence: SilenceRecord, now: number): SilenceEntry['state'] {
  if (silence.expiredAtMs !== null && silence.expiredAtMs <= now) return 'expired';
  if (now >= silence.endsAtMs) return 'expired';
  return now < silence.startsAtMs ? 'pending' : 'active';
}

/** True when every matcher the silence gives equals the alert's field. */
export function silenceMatches(
  silence: SilenceRecord,
  alert: Pick<AlertState, 'ruleId' | 'dependencyId' | 'severity'>,
) {
  const { ruleId, dependencyId, severity } = silence.matchers;
  return (
    (ruleId === undefined || ruleId === alert.ruleId) &&
    (dependencyId === undefined || dependencyId === alert.dependencyId) &&
    (severity === undefined || severity === alert.severity)
  );
}

/** The id of the first active silence matching `alert` at `now`, or null. */
export function silencedBy(
  silences: readonly SilenceRecord[],
  alert: Pick<AlertState, 'ruleId' | 'dependencyId' | 'severity'>,
  now: number,
): string | null {
  const match = silences.find(
    (silence) => silenceState(silence, now) === 'active' && silenceMatches(silence, alert),
  );
  return match?.silenceId ?? null;
}

export function silenceEntry(silence: SilenceRecord, now: number): SilenceEntry {
  return {
    silenceId: silence.silenceId,
    matchers: silence.matchers,
    state: silenceState(silence, now),
    startsAtUtc: utc(silence.startsAtMs),
    endsAtUtc: utc(silence.endsAtMs),
    comment: silence.comment,
    createdBy: silence.createdBy,
    createdAtUtc: utc(silence.createdAtMs),
    expiredAtUtc: utcOrNull(silence.expiredAtMs),
    expiredBy: silence.expiredBy,
  };
}
