import type { InvitationSendMetadata, InvitationSendResult } from '@corekit/tenant-governance';
import type { SenderCall } from './define-sender';
import {
  deliveryContextHeaders,
  encodeDeliveryContext,
  type DeliveryContextAlphabet,
  type DeliveryContextValues,
} from '@corekit/callback-kit';
import { isTimeoutError, statusOfError, type EmailSendOutcome } from '@corekit/email-kit';
import { deterministicDeliveryKey, senderOutcome } from './outcomes';

// How a provider's answer is read is email-kit's; the senders reach it here too.
export { endpointHost, statusOfError } from '@corekit/email-kit';

/**
 * The identifiers one delivery carries to the provider so status callbacks can find the invitation again:
 * tenant, invitation, channel, sender and the deterministic message id (`deterministicDeliveryKey`, the
 * same on every retry). The names and encodings are the delivery context contract of
 * `@corekit/callback-kit` (see the README's table): senders write with it, callbacks read with it. Never
 * recorded as a whole: only `messageId` goes to metadata.
 */
export type DeliveryContext = DeliveryContextValues;

export function deliveryContext(
  call: Pick<SenderCall, 'invitation' | 'channel'>,
  senderId: string,
): DeliveryContext {
  const parts = {
    tenantId: call.invitation.tenantId,
    invitationId: call.invitation.invitationId,
    channel: call.channel,
    senderId,
  };
  return { ...parts, messageId: deterministicDeliveryKey(parts, 32) };
}

/**
 * The context as the contract's `X-Core-*` headers (`lower` for providers that want lower-case names;
 * `only` limits the set), values encoded for headers.
 */
export function coreHeaders(
  context: DeliveryContext,
  options: { lower?: boolean; only?: ReadonlyArray<keyof DeliveryContext> } = {},
): Record<string, string> {
  return deliveryContextHeaders(context, options);
}

/**
 * The context as the contract's `core_*` fields: SendGrid custom args and Mailgun variables (`text`), SES
 * tags (`tag`: values outside `[A-Za-z0-9_-]` are `b64-` encoded, and the callback decodes them).
 */
export function contextFields(
  context: DeliveryContext,
  alphabet: DeliveryContextAlphabet & ('text' | 'tag') = 'text',
): Record<string, string> {
  return encodeDeliveryContext(context, alphabet);
}

/**
 * The sender-failed result of a thrown SDK error: `http-status-<code>` when it carries a status (with
 * `statusKey` set to it in metadata), `timeout` when the dispatch was aborted or the client timed out
 * (`TimeoutError`, `AbortError`, `ETIMEDOUT`, `ECONNABORTED`...), `transport-error` otherwise.
 * Always retryable (the retry queue decides the budget); the error's message is never recorded.
 */
export function failureOf(
  error: unknown,
  signal: AbortSignal,
  metadata: Record<string, string | number | boolean | null>,
  statusKey: string,
): InvitationSendResult {
  const status = statusOfError(error);
  if (status !== null)
    return senderOutcome.failed(`http-status-${status}`, { ...metadata, [statusKey]: status });
  return senderOutcome.failed(isTimeoutError(error, signal) ? 'timeout' : 'transport-error', metadata);
}

/**
 * Dispatched when `accepted` (with the core message id `messageId`, when given), otherwise sender-failed
 * `http-status-<status>` (retryable: the retry queue picks it up).
 */
export function statusOutcome(
  status: number,
  accepted: boolean,
  providerMessageId: string | null,
  metadata: InvitationSendMetadata,
  messageId?: string,
): InvitationSendResult {
  return accepted
    ? senderOutcome.dispatched(providerMessageId, metadata, messageId)
    : senderOutcome.failed(`http-status-${status}`, metadata);
}

/**
 * The invitation send result of an email transport's outcome: delivered is dispatched (with the provider's id
 * and the core message id `messageId`); retryable and terminal are both sender-failed with the transport's
 * reason and retryable (the invitation retry queue decides the budget), the transport's metadata added to the
 * sender's.
 */
export function emailSendResult(
  outcome: EmailSendOutcome,
  metadata: InvitationSendMetadata,
  messageId?: string,
): InvitationSendResult {
  const merged = { ...metadata, ...outcome.metadata };
  return outcome.outcome === 'delivered'
    ? senderOutcome.dispatched(outcome.providerMessageId, merged, messageId)
    : senderOutcome.failed(outcome.reason, merged);
}
