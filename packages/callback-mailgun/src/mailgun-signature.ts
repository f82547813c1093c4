import { createHmac } from 'node:crypto';
import type { OperationError } from '@corekit/abstractions';
import {
  constantTimeEqual,
  isRecord,
  ownProperty,
  signatureRefusalError,
  signatureTime,
  timestampWithinTolerance,
  type SignatureRefusal,
} from '@corekit/callback-kit';

export type MailgunSignatureRefusal = SignatureRefusal;

const tokenPattern = /^[A-Za-z0-9]{1,200}$/;
const hexPattern = /^[0-9a-f]{64}$/;

interface SignatureBlock {
  readonly timestamp: string;
  readonly token: string;
  readonly signature: string;
}

function block(value: unknown): SignatureBlock | 'missing' | 'malformed' {
  if (value === undefined) return 'missing';
  if (!isRecord(value)) return 'malformed';
  const timestamp = ownProperty(value, 'timestamp');
  const token = ownProperty(value, 'token');
  const signature = ownProperty(value, 'signature');
  if (timestamp === undefined || token === undefined || signature === undefined) return 'missing';
  if (typeof timestamp !== 'string' || signatureTime(timestamp) === undefined) return 'malformed';
  if (typeof token !== 'string' || !tokenPattern.test(token)) return 'malformed';
  if (typeof signature !== 'string' || !hexPattern.test(signature)) return 'malformed';
  return { timestamp, token, signature };
}

function matches(candidate: SignatureBlock, key: string): boolean {
  const expected = createHmac('sha256', key)
    .update(candidate.timestamp + candidate.token)
    .digest();
  return constantTimeEqual(expected, Buffer.from(candidate.signature, 'hex'));
}

/**
 * Verifies one MSG webhook item: `hex(HMAC-SHA256(signing key, timestamp + token))` compared in constant time,
 * timestamp within the tolerance. With `acceptParent`, an item whose own `signature` block does not verify
 * is accepted when its `parent-signature` block does (sub-account webhooks); otherwise that block is never
 * read. Answers the verified block (its token is the replay key).
 */
export function checkMailgunSignature(
  item: unknown,
  key: string,
  toleranceSeconds: number,
  now: Date,
  acceptParent: boolean,
):
  | {
      readonly outcome: 'verified';
      readonly token: string;
      readonly timestamp: string;
      readonly parent: boolean;
    }
  | {
      readonly outcome: MailgunSignatureRefusal;
    } {
  const own = block(ownProperty(item, 'signature'));
  const candidates: Array<{ value: SignatureBlock | 'missing' | 'malformed'; parent: boolean }> = [
    { value: own, parent: false },
  ];
  if (acceptParent) candidates.push({ value: block(ownProperty(item, 'parent-signature')), parent: true });
  let refusal: MailgunSignatureRefusal = typeof own === 'string' ? own : 'invalid';
  for (const candidate of candidates) {
    if (typeof candidate.value === 'string') continue;
    if (!timestampWithinTolerance(Number(candidate.value.timestamp), toleranceSeconds, now)) {
      refusal = 'stale';
      continue;
    }
    if (matches(candidate.value, key)) {
      return {
        outcome: 'verified',
        token: candidate.value.token,
        timestamp: candidate.value.timestamp,
        parent: candidate.parent,
      };
    }
    refusal = 'invalid';
  }
  return { outcome: refusal };
}

/** The 401 of a refused webhook signature (`The signed webhook signature is <refusal>`). */
export function mailgunSignatureError(refusal: MailgunSignatureRefusal): OperationError {
  return signatureRefusalError('signed webhook', refusal);
}
