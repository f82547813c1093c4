import type { Logger } from '@corekit/abstractions';
import { deliveryEventIds } from './delivery-event-ids';
import type { InvitationSenderOutcome } from './delivery-seams';

/** The log record of one sender outcome (ids, outcome, reason, attempt; never an address). */
export function logOutcome(
  logger: Logger,
  outcome: InvitationSenderOutcome,
  tenantId: string,
  channel: string,
  source: string,
): void {
  const eventId =
    outcome.outcome === 'dispatched'
      ? deliveryEventIds.senderDispatched
      : outcome.outcome === 'suppressed'
        ? deliveryEventIds.senderSuppressed
        : deliveryEventIds.senderFailed;
  logger.log({
    level: outcome.outcome === 'sender-failed' ? 'warn' : 'info',
    eventId,
    category: 'tenant-governance.delivery',
    message: `Invitation sender ${outcome.senderId} ${outcome.outcome}${outcome.reason ? ` (${outcome.reason})` : ''}, attempt ${outcome.attempt} (tenant ${tenantId}, channel ${channel}, source ${source})`,
    tenantId,
    channel,
    senderId: outcome.senderId,
    outcome: outcome.outcome,
    reason: outcome.reason,
    decision: outcome.decision,
    attempt: outcome.attempt,
    retryQueued: outcome.retryQueued,
    source,
  });
}

export function logQueue(
  logger: Logger,
  decision: string,
  tenantId: string,
  senderId: string,
  channel: string,
  attempt: number,
): void {
  if (decision === 'disabled' || decision === 'not-retryable') return;
  const eventId =
    decision === 'queued'
      ? deliveryEventIds.retryQueued
      : decision === 'queue-full'
        ? deliveryEventIds.retryQueueFull
        : deliveryEventIds.retryExhausted;
  logger.log({
    level: decision === 'queued' ? 'info' : 'warn',
    eventId,
    category: 'tenant-governance.delivery',
    message: `Invitation delivery retry ${decision} after attempt ${attempt} (tenant ${tenantId}, sender ${senderId}, channel ${channel})`,
    tenantId,
    senderId,
    channel,
    attempt,
    decision,
  });
}
