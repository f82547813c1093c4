import { timingSafeEqual } from 'node:crypto';

/** A unix-seconds timestamp header parsed strictly (digits only, at most 12); undefined when malformed. */
export function signatureTime(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,12}$/.test(value)) return undefined;
  return Number(value);
}

/** True when `seconds` is within `toleranceSeconds` of now, in either direction (clock skew both ways). */
export function timestampWithinTolerance(seconds: number, toleranceSeconds: number, now: Date): boolean {
  return Math.abs(now.getTime() / 1000 - seconds) <= toleranceSeconds;
}

/** Constant-time comparison of two byte strings (false on a length difference, without early exit on content). */
export function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}
