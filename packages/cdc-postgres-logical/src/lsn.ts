/** An LSN as PostgreSQL prints it (`0/1549CF0`), from the client's zero-padded form. */
export function formatLsn(lsn: string): string {
  const [high, low] = lsn.split('/');
  return `${parseInt(high!, 16).toString(16).toUpperCase()}/${parseInt(low!, 16).toString(16).toUpperCase()}`;
}

/** An LSN as a number of bytes (exact up to 2^53: 8 PiB of WAL). */
export function lsnValue(lsn: string): number {
  const [high, low] = lsn.split('/').map((part) => parseInt(part, 16)) as [number, number];
  return high * 2 ** 32 + low;
}

/** Negative, zero or positive as `left` is before, at or after `right`. */
export function compareLsn(left: string, right: string): number {
  return lsnValue(left) - lsnValue(right);
}

/** The later of two LSNs. */
export function laterLsn(left: string, right: string): string {
  return compareLsn(left, right) >= 0 ? left : right;
}

/**
 * The LSN one byte before `lsn`: the client reports "last byte received + 1" in its standby status update, so
 * confirming `lsn` itself means reporting the byte before it.
 */
export function previousLsn(lsn: string): string {
  const value = lsnValue(lsn) - 1;
  return `${Math.floor(value / 2 ** 32)
    .toString(16)
    .toUpperCase()}/${(value % 2 ** 32).toString(16).toUpperCase()}`;
}
