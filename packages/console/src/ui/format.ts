/** "4 s ago", "3 min ago", "2 h ago". */
export function ageText(sinceMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - sinceMs) / 1000));
  if (seconds < 90) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}

export function durationText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  return ms < 1000 ? `${Math.round(ms * 10) / 10} ms` : `${Math.round(ms / 100) / 10} s`;
}

// Formatters made once: toLocaleString() with options builds a new Intl formatter on every call, which showed in
// the first render's profile.
const localDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });
const localClock = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const localDay = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

export function timeText(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : localDateTime.format(date);
}

export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '–';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** "2026-11-26 10:42:07 UTC". */
export function utcText(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** "4 s", "3 min", "2 h" (a span, for "failing for"). */
export function spanText(fromMs: number, nowMs: number): string {
  return ageText(fromMs, nowMs).replace(/ ago$/, '');
}

/** "10:42" today, "26 Nov, 10:42" another day (local time). */
export function clockText(iso: string, nowMs = Date.now()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const time = localClock.format(date);
  return new Date(nowMs).toDateString() === date.toDateString() ? time : `${localDay.format(date)}, ${time}`;
}
