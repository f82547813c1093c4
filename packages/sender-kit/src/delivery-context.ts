import type { InvitationSendMetadata, InvitationSendResult } from '@corekit/tenant-governance';
import type { SenderCall } from './define-sender';
import { deterministicDeliveryKey, senderOutcome } from './outcomes';

/**
 * The identifiers one delivery carries to the provider (custom args, variables, tags, `X-Core-*` headers)
 * so status callbacks can find the invitation again: tenant, invitation, channel, sender and the
 * deterministic message id (`deterministicDeliveryKey`, the same on every retry). Never recorded as a whole:
 * only `messageId` goes to metadata.
 */
export interface DeliveryContext {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel: string;
  readonly senderId: string;
  readonly messageId: string;
}

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

/** The context as `X-Core-*` headers (`lower` for providers that want lower-case names); `only` limits the set. */
export function coreHeaders(
  context: DeliveryContext,
  options: { lower?: boolean; only?: ReadonlyArray<keyof DeliveryContext> } = {},
): Record<string, string> {
  const names: Record<keyof DeliveryContext, string> = {
    messageId: 'X-Core-Message-Id',
    tenantId: 'X-Core-Tenant-Id',
    invitationId: 'X-Core-Invitation-Id',
    channel: 'X-Core-Channel',
    senderId: 'X-Core-Sender-Id',
  };
  const headers: Record<string, string> = {};
  for (const key of options.only ?? (Object.keys(names) as Array<keyof DeliveryContext>)) {
    headers[options.lower ? names[key].toLowerCase() : names[key]] = context[key];
  }
  return headers;
}

/** The context as plain string fields (SendGrid custom args, Mailgun variables, SES tags). */
export function contextFields(context: DeliveryContext): Record<string, string> {
  return {
    tenantId: context.tenantId,
    invitationId: context.invitationId,
    channel: context.channel,
    senderId: context.senderId,
    coreMessageId: context.messageId,
  };
}

/** The host of an endpoint URL (safe to record: no path, query or user info). */
export function endpointHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid';
  }
}

/**
 * The HTTP status an SDK error carries (`code`, `status`, `statusCode`, `$metadata.httpStatusCode`,
 * `response.status(Code)`), or null for transport errors. SendGrid, Mailgun, the AWS SDK and the Graph
 * client each put it somewhere else.
 */
export function statusOfError(error: unknown): number | null {
  if (!error || typeof error !== 'object') return null;
  const source = error as Record<string, any>;
  const candidates = [
    source.$metadata?.httpStatusCode,
    source.statusCode,
    source.status,
    source.response?.statusCode,
    source.response?.status,
    source.code,
  ];
  for (const value of candidates) {
    if (typeof value === 'number' && value >= 100 && value <= 599) return value;
  }
  return null;
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
  const details = (error && typeof error === 'object' ? error : {}) as { name?: unknown; code?: unknown };
  const timedOut =
    signal.aborted ||
    /timeout|abort/i.test(String(details.name ?? '')) ||
    /^(ETIMEDOUT|ECONNABORTED|ESOCKETTIMEDOUT|UND_ERR_.*TIMEOUT)$/.test(String(details.code ?? ''));
  return senderOutcome.failed(timedOut ? 'timeout' : 'transport-error', metadata);
}

/**
 * Dispatched when `accepted`, otherwise sender-failed `http-status-<status>` (retryable: the retry queue
 * picks it up).
 */
export function statusOutcome(
  status: number,
  accepted: boolean,
  providerMessageId: string | null,
  metadata: InvitationSendMetadata,
): InvitationSendResult {
  return accepted
    ? senderOutcome.dispatched(providerMessageId, metadata)
    : senderOutcome.failed(`http-status-${status}`, metadata);
}
