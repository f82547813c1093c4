import { timeText, utcText } from '../format';

/** "4 min 12 s", "1 h 3 min", "12 s": what is left until a time. */
export function leftText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The time left until `iso`, ticking with `now`, as a `<time datetime>` whose title holds the local time and UTC;
 * "ended" once past. Not a time (null, text): shown as it is.
 */
export function Countdown({ iso, now }: { readonly iso: unknown; readonly now: number }) {
  const at = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(at)) return <>{iso === null || iso === undefined ? '–' : String(iso)}</>;
  const left = at - now;
  return (
    <time
      dateTime={iso as string}
      title={`${timeText(iso as string)} (${utcText(iso as string)})`}
      data-countdown
    >
      {left > 0 ? `in ${leftText(left)}` : 'ended'}
    </time>
  );
}
