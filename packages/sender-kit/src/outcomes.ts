import { createHash } from 'node:crypto';
import type { InvitationSendMetadata, InvitationSendResult } from '@corekit/tenant-governance';

/**
 * Builders of sender results. Metadata passed here must already be safe (counts, statuses, hosts, ids the
 * provider returned): the dispatcher sanitizes again before run state, but the sender's own result is
 * what its caller and its logs see.
 */
export const senderOutcome = {
  /**
   * An accepted hand-off. `messageId` is the core message id the sender put on the message (the delivery
   * context's `messageId`): recorded beside the provider's id so callbacks can name the message by either.
   */
  dispatched(
    providerMessageId: string | null,
    metadata: InvitationSendMetadata = {},
    messageId?: string,
  ): InvitationSendResult {
    return { outcome: 'dispatched', providerMessageId, metadata, ...(messageId ? { messageId } : {}) };
  },
  /** A failure; `retryable` (default true) lets the retry queue pick it up. */
  failed(reason: string, metadata: InvitationSendMetadata = {}, retryable = true): InvitationSendResult {
    return { outcome: 'sender-failed', reason, retryable, metadata };
  },
  suppressed(
    reason: string,
    decision: 'sender' | 'provider-managed' = 'sender',
    metadata: InvitationSendMetadata = {},
  ): InvitationSendResult {
    return { outcome: 'suppressed', reason, decision, metadata };
  },
};

/**
 * A deterministic id of one delivery (tenant, invitation, channel, sender): the same on every attempt, so
 * providers and receivers can deduplicate retries. Lower-case hex SHA-256, cut to `length` characters.
 */
export function deterministicDeliveryKey(
  parts: { tenantId: string; invitationId: string; channel: string; senderId: string },
  length = 64,
): string {
  const text = [parts.tenantId, parts.invitationId, parts.channel, parts.senderId]
    .map(encodeURIComponent)
    .join('/');
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** Classifies an HTTP status against accepted codes (any 2xx when none are given). */
export function isAcceptedStatus(status: number, accepted?: readonly number[]): boolean {
  return accepted && accepted.length > 0 ? accepted.includes(status) : status >= 200 && status < 300;
}
