import { z } from 'zod';

const clock = /^(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/;
const shorthand = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/i;
const iso = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;
const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration in one of the three accepted forms into milliseconds: `00:00:30` (optionally `d.hh:mm:ss.fff`),
 * `30s` / `500ms` / `5m` / `1h` / `1d`, or ISO-8601 `PT30S`. Returns undefined for anything else, including a
 * bare number (its unit would be a guess).
 */
export function parseDuration(value: string): number | undefined {
  const text = value.trim();
  let match = clock.exec(text);
  if (match) {
    const [, days, hours, minutes, seconds, fraction] = match;
    if (Number(minutes) > 59 || Number(seconds) > 59) return undefined;
    const fractionMs = fraction ? Number(`0.${fraction}`) * 1000 : 0;
    return (
      Number(days ?? 0) * unitMs.d +
      Number(hours) * unitMs.h +
      Number(minutes) * unitMs.m +
      Number(seconds) * 1000 +
      fractionMs
    );
  }
  match = shorthand.exec(text);
  if (match) return Number(match[1]) * unitMs[match[2].toLowerCase()];
  match = iso.exec(text);
  if (match && text.toUpperCase() !== 'P' && !text.toUpperCase().endsWith('T')) {
    const [, days, hours, minutes, seconds] = match;
    return (
      Number(days ?? 0) * unitMs.d +
      Number(hours ?? 0) * unitMs.h +
      Number(minutes ?? 0) * unitMs.m +
      Number(seconds ?? 0) * 1000
    );
  }
  return undefined;
}

/** Formats milliseconds as an ISO-8601 duration (`PT1.5S`). */
export function formatDuration(milliseconds: number): string {
  const seconds = Math.max(0, milliseconds) / 1000;
  return `PT${Number(seconds.toFixed(3))}S`;
}

const durationShape = 'a duration such as "30s", "500ms", "00:00:30" or "PT30S"';

/**
 * A configuration duration: accepts `00:00:30`, `30s` or `PT30S`; outputs milliseconds. A bare number is
 * refused with a message that shows the accepted forms (its unit would be a guess).
 */
export function durationSchema() {
  return z.union([z.string(), z.number()]).transform((value, context) => {
    if (typeof value === 'number') {
      context.addIssue({
        code: 'custom',
        message: `must be ${durationShape}, got the bare number ${value}: add a unit ("${value}s" for seconds)`,
      });
      return z.NEVER;
    }
    const milliseconds = parseDuration(value);
    if (milliseconds === undefined) {
      context.addIssue({ code: 'custom', message: `must be ${durationShape}, got "${value}"` });
      return z.NEVER;
    }
    return milliseconds;
  });
}
