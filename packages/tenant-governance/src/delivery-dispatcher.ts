import { randomUUID } from 'node:crypto';
import { OperationError, type KeyedStore, type Logger, type PackCounter } from '@corekit/abstractions';
import { deliveryEventIds } from './delivery-event-ids';
import { logOutcome, logQueue } from './delivery-logs';
import type { SenderRegistry } from './sender-registry';
import { resolveInvitationRecipient, sanitizeSendMetadata, suppliesRecipient } from './delivery-recipient';
import type {
  InvitationDeliveryDispatcher,
  InvitationDispatchRequest,
  InvitationDispatchResult,
  InvitationSender,
  InvitationSenderOutcome,
  InvitationSendResult,
} from './delivery-seams';
import { retryKey, type RetryClaimRenewal, type RetryQueue } from './retry-queue';
import type { TenantGovernance } from './tenant-governance';

/** What the run-state store keeps per tenant + invitation + channel + sender: the latest attempt's truth. */
export interface DeliveryRunRecord extends Omit<InvitationSenderOutcome, 'metadata'> {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel: string;
  readonly dispatchId: string;
  readonly source: string;
  readonly atUtc: string;
  /** Sanitized: never a recipient address, a body or a credential. */
  readonly metadata: InvitationSenderOutcome['metadata'];
  /** The sender's own message id (`InvitationSendResult.messageId`), when it reported one. */
  readonly messageId?: string | null;
}

/** Per-process delivery counts for the surface. */
export interface DeliveryCounts {
  runCount: number;
  outcomes: Record<'dispatched' | 'suppressed' | 'sender-failed' | 'already-running', number>;
  latestOutcome: string | null;
}

export interface DispatcherDependencies {
  readonly governance: TenantGovernance;
  readonly runs: KeyedStore<DeliveryRunRecord>;
  readonly queue: RetryQueue;
  readonly logger: Logger;
  readonly counter: PackCounter;
  readonly now: () => Date;
  /** Called after every recorded outcome (the status book keeps dispatches and spent failures). */
  readonly onOutcome: (record: DeliveryRunRecord) => Promise<void>;
}

/**
 * Dispatches an invitation through the registered senders. Per sender it records the outcome truth in the
 * run-state store (sanitized metadata only), offers retryable failures to the retry queue and clears a
 * queued retry once the sender dispatched or suppressed. One delivery (tenant + invitation + channel) runs
 * at a time in this process: an overlapping dispatch or retry answers `already-running` for every sender
 * and changes nothing. The first dispatched outcome marks the invitation sent.
 */
export class DeliveryDispatcher implements InvitationDeliveryDispatcher {
  readonly counts: DeliveryCounts = {
    runCount: 0,
    outcomes: { dispatched: 0, suppressed: 0, 'sender-failed': 0, 'already-running': 0 },
    latestOutcome: null,
  };
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly registry: SenderRegistry,
    private readonly deps: DispatcherDependencies,
  ) {}

  /** The recorded run state of an invitation: the latest outcome per channel and sender. */
  async runState(tenantId: string, invitationId: string): Promise<DeliveryRunRecord[]> {
    const prefix = `${encodeURIComponent(tenantId)}/${encodeURIComponent(invitationId)}/`;
    return (await this.deps.runs.list({ prefix })).map((record) => record.value);
  }

  dispatch(request: InvitationDispatchRequest): Promise<InvitationDispatchResult> {
    return this.run(request, 'manual');
  }

  /**
   * The dispatch itself; `source` labels the pass (`manual`, or the retry runner's source). `claim`: the retry
   * runner's claim on the queue entry, kept renewed during the send. Its signal reaches the sender; once it is
   * lost (another replica took the entry over, or the lease ran out while the store was unavailable) the
   * outcome is returned but not recorded: no queue write, no run record, no status-book entry, no `sent`
   * mark. The entry belongs to the replica that took it over, which records its own attempt.
   */
  async run(
    request: InvitationDispatchRequest,
    source: string,
    claim?: RetryClaimRenewal,
  ): Promise<InvitationDispatchResult> {
    const { governance, logger } = this.deps;
    const channel = request.channel ?? 'email';
    const invitation = await governance.getInvitation(request.tenantId, request.invitationId);
    if (!invitation) {
      throw new OperationError('not-found', 'INVITATION_NOT_FOUND', 'The invitation does not exist');
    }
    if (invitation.status !== 'pending' && invitation.status !== 'sent') {
      throw new OperationError(
        'conflict',
        'INVITATION_NOT_DELIVERABLE',
        `An ${invitation.status} invitation is not delivered`,
      );
    }
    const senders = this.registry
      .list()
      .filter((sender) => !request.senderIds || request.senderIds.includes(sender.id));
    if (senders.length === 0) {
      throw new OperationError(
        'conflict',
        'DELIVERY_NO_SENDERS',
        'No registered sender matches the dispatch',
      );
    }
    const dispatchId = randomUUID();
    const flightKey = [request.tenantId, request.invitationId, channel].map(encodeURIComponent).join('/');
    const base = { dispatchId, tenantId: request.tenantId, invitationId: request.invitationId, channel };
    if (this.inFlight.has(flightKey)) {
      const outcomes = senders.map((sender) => this.overlap(sender.id));
      this.count(outcomes, request.tenantId, source);
      logger.log({
        level: 'info',
        eventId: deliveryEventIds.dispatchAlreadyRunning,
        category: 'tenant-governance.delivery',
        message: `Invitation dispatch already running (tenant ${request.tenantId}, channel ${channel}, source ${source})`,
        tenantId: request.tenantId,
        channel,
        source,
      });
      return { ...base, invitationStatus: invitation.status, outcomes };
    }
    this.inFlight.add(flightKey);
    try {
      logger.log({
        level: 'debug',
        eventId: deliveryEventIds.dispatchStarted,
        category: 'tenant-governance.delivery',
        message: `Invitation dispatch started (tenant ${request.tenantId}, channel ${channel}, ${senders.length} sender(s), source ${source})`,
        tenantId: request.tenantId,
        channel,
        senderCount: senders.length,
        source,
      });
      const metadata = { ...(request.metadata ?? {}) };
      const recipient = resolveInvitationRecipient(invitation, metadata);
      if (suppliesRecipient(metadata)) {
        await governance.recordSuppliedRecipient({
          tenantId: request.tenantId,
          invitationId: request.invitationId,
          actor: request.actor ?? null,
          correlationId: request.correlationId ?? null,
        });
      }
      const forbiddenFor = (sender: InvitationSender, secret: string | null) => {
        const recordable = new Set(sender.recordableMetadataKeys ?? []);
        const values = Object.entries(metadata)
          .filter(([key]) => !recordable.has(key))
          .map(([, value]) => value);
        return [recipient, invitation.inviteeId, secret, ...values];
      };
      // A new secret per sender for this pass, all stored (as hashes) in one write before any message goes
      // out: each replaces its sender's previous one, so the newest message of each sender is the one that
      // works, and a failed write sends nothing.
      const sending = senders.filter((sender) => sender.supportedChannels.includes(channel));
      const secrets =
        sending.length > 0
          ? await governance.issueAcceptanceSecrets({
              tenantId: request.tenantId,
              invitationId: request.invitationId,
              channel,
              senderIds: sending.map((sender) => sender.id),
            })
          : {};
      const outcomes: InvitationSenderOutcome[] = [];
      for (const sender of senders) {
        const key = retryKey(request.tenantId, request.invitationId, channel, sender.id);
        const attempt = ((await this.deps.queue.get(key))?.value.attempts ?? 0) + 1;
        let result: InvitationSendResult;
        let decision: InvitationSenderOutcome['decision'] = 'sender';
        let acceptanceSecret: string | null = null;
        if (!sender.supportedChannels.includes(channel)) {
          result = { outcome: 'suppressed', reason: 'channel-unsupported' };
          decision = 'provider-managed';
        } else {
          acceptanceSecret = secrets[sender.id]!;
          try {
            result = await sender.send({
              invitation,
              channel,
              metadata,
              recipient,
              acceptanceSecret,
              dispatchId,
              attempt,
              signal: sendSignal(request.signal, claim?.signal),
            });
            decision = result.decision ?? 'sender';
          } catch {
            result = { outcome: 'sender-failed', reason: 'sender-exception', retryable: true };
          }
        }
        let retryQueued = false;
        if (claim && !claim.held()) {
          outcomes.push(this.unrecorded(sender.id, result, decision, attempt));
          this.logClaimLost(request.tenantId, sender.id, channel, claim);
          continue;
        }
        if (result.outcome === 'sender-failed') {
          const queued = await this.deps.queue.recordFailure(
            {
              tenantId: request.tenantId,
              invitationId: request.invitationId,
              channel,
              senderId: sender.id,
              lastReason: result.reason ?? null,
              metadata,
            },
            attempt,
            result.retryable !== false,
          );
          retryQueued = queued === 'queued';
          logQueue(this.deps.logger, queued, request.tenantId, sender.id, channel, attempt);
        } else if (await this.deps.queue.complete(key)) {
          logger.log({
            level: 'info',
            eventId: deliveryEventIds.retrySucceeded,
            category: 'tenant-governance.delivery',
            message: `Queued invitation delivery ${result.outcome} on attempt ${attempt} (tenant ${request.tenantId}, sender ${sender.id})`,
            tenantId: request.tenantId,
            senderId: sender.id,
            attempt,
            outcome: result.outcome,
          });
        }
        const outcome: InvitationSenderOutcome = {
          senderId: sender.id,
          outcome: result.outcome,
          reason: result.reason ?? null,
          decision,
          attempt,
          providerMessageId: result.providerMessageId ?? null,
          retryQueued,
          metadata: sanitizeSendMetadata(result.metadata, forbiddenFor(sender, acceptanceSecret)),
        };
        outcomes.push(outcome);
        const record: DeliveryRunRecord = {
          ...outcome,
          ...base,
          source,
          atUtc: this.deps.now().toISOString(),
          ...(result.messageId ? { messageId: result.messageId.slice(0, 200) } : {}),
        };
        await this.deps.runs.put(key, record);
        logOutcome(this.deps.logger, outcome, request.tenantId, channel, source);
        await this.deps.onOutcome(record);
      }
      this.count(outcomes, request.tenantId, source);
      let invitationStatus: string = invitation.status;
      if (
        outcomes.some((outcome) => outcome.outcome === 'dispatched' && outcome.reason !== claimLostReason)
      ) {
        const marked = await governance.markInvitationSent(request.tenantId, request.invitationId);
        invitationStatus = marked.invitation?.status ?? invitationStatus;
      }
      return { ...base, invitationStatus, outcomes };
    } finally {
      this.inFlight.delete(flightKey);
    }
  }

  /** The outcome of a send whose claim was lost meanwhile: returned as it happened, recorded nowhere. */
  private unrecorded(
    senderId: string,
    result: InvitationSendResult,
    decision: InvitationSenderOutcome['decision'],
    attempt: number,
  ): InvitationSenderOutcome {
    return {
      senderId,
      outcome: result.outcome,
      reason: claimLostReason,
      decision,
      attempt,
      providerMessageId: result.providerMessageId ?? null,
      retryQueued: false,
      metadata: {},
    };
  }

  private logClaimLost(tenantId: string, senderId: string, channel: string, claim: RetryClaimRenewal): void {
    this.deps.queue.countLostDuringSend();
    this.deps.logger.log({
      level: 'warn',
      eventId: deliveryEventIds.retryQueued,
      category: 'tenant-governance.delivery',
      message: `Invitation delivery retry claim lost while its send was in flight (${claim.lostReason ?? 'lost'}); the outcome is not recorded, the replica holding the entry records its own attempt (tenant ${tenantId}, sender ${senderId})`,
      tenantId,
      senderId,
      channel,
      outcome: 'claim-lost',
      lostReason: claim.lostReason,
    });
  }

  private overlap(senderId: string): InvitationSenderOutcome {
    return {
      senderId,
      outcome: 'already-running',
      reason: 'delivery-in-flight',
      decision: 'dispatcher',
      attempt: 0,
      providerMessageId: null,
      retryQueued: false,
      metadata: {},
    };
  }

  private count(outcomes: readonly InvitationSenderOutcome[], tenantId: string, source: string): void {
    this.counts.runCount++;
    for (const outcome of outcomes) {
      this.counts.outcomes[outcome.outcome]++;
      this.counts.latestOutcome = outcome.outcome;
      this.deps.counter.add(1, { outcome: outcome.outcome, senderId: outcome.senderId, tenantId, source });
    }
  }
}

/** The `reason` of a retry outcome not recorded because its claim was lost during the send. */
export const claimLostReason = 'retry-claim-lost';

/** The signal a send gets: the request's, and the retry claim's (aborted once the claim is lost). */
function sendSignal(request: AbortSignal | undefined, claim: AbortSignal | undefined): AbortSignal {
  const signals = [request, claim].filter((signal): signal is AbortSignal => signal !== undefined);
  if (signals.length === 0) return new AbortController().signal;
  return signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
}
