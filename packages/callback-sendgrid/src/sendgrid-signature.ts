import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { OperationError } from '@corekit/abstractions';
import {
  signatureRefusalError,
  signatureTime,
  timestampWithinTolerance,
  type SignatureRefusal,
} from '@corekit/callback-kit';

/** Why a signed event webhook was refused (all answered 401). */
export type { SignatureRefusal };

const base64 = /^[A-Za-z0-9+/]{8,300}={0,2}$/;

/** Decodes canonical base64 only: any other spelling of the same bytes is malformed (a changed byte always fails). */
function canonicalBase64(text: string): Buffer | undefined {
  if (!base64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : undefined;
}

/** Parses the configured base64 DER SPKI public key. */
export function sendGridPublicKey(text: string): KeyObject {
  return createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
}

/**
 * Verifies the SEND signed event webhook: ECDSA P-256 / SHA-256 over the timestamp header text followed by
 * the exact raw body bytes (no separator), base64 DER signature. Nothing is parsed before this answers
 * `verified`; the timestamp must be digits within the tolerance of `now`.
 */
export function checkSendGridSignature(
  raw: Buffer,
  signatureHeader: string | undefined,
  timestampHeader: string | undefined,
  key: KeyObject,
  toleranceSeconds: number,
  now: Date,
): { readonly outcome: 'verified'; readonly timestamp: string } | { readonly outcome: SignatureRefusal } {
  if (!signatureHeader || !timestampHeader) return { outcome: 'missing' };
  const seconds = signatureTime(timestampHeader);
  const signature = canonicalBase64(signatureHeader);
  if (seconds === undefined || !signature) return { outcome: 'malformed' };
  if (!timestampWithinTolerance(seconds, toleranceSeconds, now)) return { outcome: 'stale' };
  let valid = false;
  try {
    valid = verify('sha256', Buffer.concat([Buffer.from(timestampHeader, 'utf8'), raw]), key, signature);
  } catch {
    valid = false;
  }
  return valid ? { outcome: 'verified', timestamp: timestampHeader } : { outcome: 'invalid' };
}

/** The 401 of a refused signature; the message names the reason, never the signature or the body. */
export function signatureError(refusal: SignatureRefusal): OperationError {
  return signatureRefusalError('signed event webhook', refusal);
}
