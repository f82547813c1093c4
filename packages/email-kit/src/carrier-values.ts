/**
 * How values are written: `text` (SEND custom args, MSG user variables: any string), `header` (visible
 * US-ASCII, no space), `tag` (CLOUD: `[A-Za-z0-9_-]`, at most 256 characters).
 */
export type DeliveryContextAlphabet = 'text' | 'header' | 'tag';

const alphabets: Record<DeliveryContextAlphabet, RegExp> = {
  text: /^[^\p{Cc}]+$/u,
  header: /^[\x21-\x7e]+$/,
  tag: /^[A-Za-z0-9_-]+$/,
};
const maxLength: Record<DeliveryContextAlphabet, number> = { text: 1000, header: 1000, tag: 256 };

/** Prefix of an encoded value. */
export const encodedContextPrefix = 'b64-';
const base64Url = /^[A-Za-z0-9_-]*$/;

/**
 * A value in `alphabet`: as is when every character is allowed and it does not start with `b64-`,
 * otherwise `b64-` + base64url of its UTF-8 bytes (base64url uses only `[A-Za-z0-9_-]`, allowed everywhere).
 * Undefined when even the encoded form is longer than the carrier takes (a CLOUD tag value past 256
 * characters: an id over 189 UTF-8 bytes that needs encoding); the sender then leaves that part out.
 */
export function encodeContextValue(value: string, alphabet: DeliveryContextAlphabet): string | undefined {
  const plain =
    value.length > 0 && alphabets[alphabet].test(value) && !value.startsWith(encodedContextPrefix);
  const encoded = plain
    ? value
    : `${encodedContextPrefix}${Buffer.from(value, 'utf8').toString('base64url')}`;
  return encoded.length <= maxLength[alphabet] ? encoded : undefined;
}

/**
 * The text `encodeContextValue` wrote, or undefined when a `b64-` value is not the exact encoding of any
 * text (cut, padded, altered): such a value is treated as absent, never guessed at.
 */
export function decodeContextValue(value: string): string | undefined {
  if (!value.startsWith(encodedContextPrefix)) return value;
  const payload = value.slice(encodedContextPrefix.length);
  if (!base64Url.test(payload)) return undefined;
  const text = Buffer.from(payload, 'base64url').toString('utf8');
  return Buffer.from(text, 'utf8').toString('base64url') === payload && text.length > 0 ? text : undefined;
}
