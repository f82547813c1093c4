import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { OperationError } from '@corekit/abstractions';

/** Stable codes of refused callback signatures (all answer 401). */
export const callbackSignatureCodes = {
  missing: 'CALLBACK_SIGNATURE_MISSING',
  malformed: 'CALLBACK_SIGNATURE_MALFORMED',
  stale: 'CALLBACK_SIGNATURE_STALE',
  invalid: 'CALLBACK_SIGNATURE_INVALID',
  keyUnknown: 'CALLBACK_SIGNATURE_KEY_UNKNOWN',
} as const;

/** How the provider-neutral callback is signed (the adapter's bound options, in short). */
export interface CallbackSignatureSettings {
  readonly secret: string;
  /** When set, the key-id header must carry exactly this value. */
  readonly keyId: string | undefined;
  /** Lower-cased header names. */
  readonly signatureHeader: string;
  readonly timestampHeader: string;
  readonly keyIdHeader: string;
  readonly toleranceSeconds: number;
}

/** A verified signature: what the replay guard keys on. */
export interface VerifiedCallbackSignature {
  readonly timestamp: number;
  /** SHA-256 of key id, timestamp and the matching signature: the replay key (never the signature itself). */
  readonly fingerprint: string;
}

/**
 * Signs a callback body the way the adapter verifies it: HMAC-SHA256 with `secret` over
 * `{unixTimestamp}.{rawBody}`, answered as the header value `v1=<lowercase hex>`. For senders, receivers
 * and tests; the body must be sent byte for byte as signed.
 */
export function signDeliveryStatusCallback(
  secret: string,
  unixTimestamp: number,
  rawBody: Buffer | string,
): string {
  return `v1=${digest(
    secret,
    String(unixTimestamp),
    Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody),
  ).toString('hex')}`;
}

function digest(secret: string, timestamp: string, rawBody: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
}

function refuse(code: string, message: string): OperationError {
  return new OperationError('unauthenticated', code, message);
}

function equalText(left: string, right: string): boolean {
  const a = createHash('sha256').update(left).digest();
  const b = createHash('sha256').update(right).digest();
  return timingSafeEqual(a, b) && left.length === right.length;
}

/**
 * Verifies the signature headers against the exact request bytes: the timestamp is whole unix seconds
 * within the tolerance of `nowMs`, the key id matches when one is configured, and one `v1=<hex>` entry of
 * the signature header (comma-separated entries allow overlapping rotation on the sender's side) equals
 * the HMAC, compared in constant time on the raw digest bytes. Throws OperationError `unauthenticated`
 * (401) with a code of `callbackSignatureCodes`; the answer never says what the expected value was.
 */
export function verifyCallbackSignature(
  settings: CallbackSignatureSettings,
  headers: Readonly<Record<string, string | undefined>>,
  rawBody: Buffer,
  nowMs: number,
): VerifiedCallbackSignature {
  const signatureText = headers[settings.signatureHeader];
  const timestampText = headers[settings.timestampHeader];
  if (!signatureText || !timestampText) {
    throw refuse(
      callbackSignatureCodes.missing,
      'The callback carries no signature or no signature timestamp',
    );
  }
  if (!/^\d{1,12}$/.test(timestampText.trim())) {
    throw refuse(callbackSignatureCodes.malformed, 'The signature timestamp must be whole unix seconds');
  }
  const timestamp = Number(timestampText.trim());
  const entries = signatureText
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const candidates = entries
    .map((entry) => /^v1=([0-9a-fA-F]{64})$/.exec(entry)?.[1])
    .filter((hex): hex is string => hex !== undefined);
  if (candidates.length === 0 || candidates.length !== entries.length || entries.length > 5) {
    throw refuse(
      callbackSignatureCodes.malformed,
      'The signature header must hold v1=<64 hex digits> entries',
    );
  }
  if (Math.abs(nowMs / 1000 - timestamp) > settings.toleranceSeconds) {
    throw refuse(callbackSignatureCodes.stale, 'The signature timestamp is outside the accepted tolerance');
  }
  const keyIdText = headers[settings.keyIdHeader]?.trim();
  if (settings.keyId !== undefined && (!keyIdText || !equalText(keyIdText, settings.keyId))) {
    throw refuse(
      callbackSignatureCodes.keyUnknown,
      'The signature key id is missing or not the configured one',
    );
  }
  const expected = digest(settings.secret, timestampText.trim(), rawBody);
  let matched: string | undefined;
  for (const hex of candidates) {
    // Every candidate is compared (no early exit), each in constant time over the 32 digest bytes.
    if (timingSafeEqual(Buffer.from(hex, 'hex'), expected) && matched === undefined)
      matched = hex.toLowerCase();
  }
  if (matched === undefined) {
    throw refuse(
      callbackSignatureCodes.invalid,
      'The callback signature does not match its body and timestamp',
    );
  }
  const fingerprint = createHash('sha256')
    .update(`${settings.keyId ?? ''}|${timestamp}|${matched}`)
    .digest('hex');
  return { timestamp, fingerprint };
}
