import { createHash } from 'node:crypto';
import { deterministicDeliveryKey, type DeliveryContext } from '@corekit/sender-kit';

/** Longest supplied idempotency key sent as is; longer ones are hashed. */
export const maxIdempotencyKeyLength = 128;
const headerSafe = /^[\x21-\x7e]+$/;

/** Where the sent idempotency key came from (recorded as `httpIdempotencyKeySource`). */
export type IdempotencyKeySource = 'supplied' | 'supplied-hashed' | 'derived';

/**
 * Spec 4.1 HTTP rule 1: a key supplied in dispatch metadata is sent as is when it is visible ASCII and at
 * most 128 characters; an overlong or header-unsafe one is replaced by its SHA-256 (lower-case hex, the same
 * for the same value); without one, the key is the SHA-256 of tenant, invitation, channel and sender.
 */
export function idempotencyKey(
  supplied: string | undefined,
  context: DeliveryContext,
): { key: string; source: IdempotencyKeySource } {
  if (supplied !== undefined && supplied.length > 0) {
    if (supplied.length <= maxIdempotencyKeyLength && headerSafe.test(supplied))
      return { key: supplied, source: 'supplied' };
    return { key: createHash('sha256').update(supplied, 'utf8').digest('hex'), source: 'supplied-hashed' };
  }
  return { key: deterministicDeliveryKey(context), source: 'derived' };
}
