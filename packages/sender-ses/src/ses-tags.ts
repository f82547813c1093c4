/** SES tag names and values allow only these characters, at most 256 of them. */
const allowed = /^[A-Za-z0-9_-]{1,256}$/;
const encodedPrefix = 'b64-';

/**
 * A tag value in SES's alphabet: kept as is when already allowed, otherwise `b64-` + base64url of the
 * UTF-8 text (base64url uses only allowed characters), cut to 256. Deterministic and, below the cut,
 * reversible with `decodeSesTagValue`, so status callbacks find tenant and invitation ids again. An
 * empty value is `none` (SES refuses empty values).
 */
export function sesTagValue(value: string): string {
  if (value.length === 0) return 'none';
  if (allowed.test(value) && !value.startsWith(encodedPrefix)) return value;
  return `${encodedPrefix}${Buffer.from(value, 'utf8').toString('base64url')}`.slice(0, 256);
}

/** The text `sesTagValue` encoded. */
export function decodeSesTagValue(value: string): string {
  return value.startsWith(encodedPrefix)
    ? Buffer.from(value.slice(encodedPrefix.length), 'base64url').toString('utf8')
    : value;
}

/** A tag name in SES's alphabet: other characters become `_`, cut to 256. */
export function sesTagName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256) || '_';
}
