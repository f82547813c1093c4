import { decodeContextValue, encodeContextValue, encodedContextPrefix } from '@corekit/email-kit';

/**
 * A configured tag value in SES's alphabet (`[A-Za-z0-9_-]`, at most 256): the delivery context contract's
 * `tag` encoding (as is when allowed, otherwise `b64-` + base64url of the UTF-8 text), cut to 256 when even
 * that is longer (configured tags are labels, not ids a callback reads back). An empty value is `none`
 * (SES refuses empty values). The context tags themselves are written by `contextFields(context, 'tag')`.
 */
export function sesTagValue(value: string): string {
  if (value.length === 0) return 'none';
  return (
    encodeContextValue(value, 'tag') ??
    `${encodedContextPrefix}${Buffer.from(value, 'utf8').toString('base64url')}`.slice(0, 256)
  );
}

/** The text `sesTagValue` encoded (a cut encoding is answered as received). */
export function decodeSesTagValue(value: string): string {
  return decodeContextValue(value) ?? value;
}

/** A tag name in SES's alphabet: other characters become `_`, cut to 256. */
export function sesTagName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256) || '_';
}
