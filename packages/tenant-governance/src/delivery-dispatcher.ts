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
} from './delivery-seams';
import {
  claimLostReason,
  forbiddenValues,
  overlapOutcome,
  sendSignal,
  unrecordedOutcome,
  type DispatchPass,
  type SentAttempt,
} from './dispatch-pass';
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
    const channel = request.channel ?? 'email';
    const { invitation, senders } = await this.deliverable(request);
    const base = {
      dispatchId: randomUUID(),
      tenantId: request.tenantId,
      invitationId: request.invitationId,
      channel,
    };
    const flightKey = [request.tenantId, request.invitationId, channel].map(encodeURIComponent).join('/');
    if (this.inFlight.has(flightKey)) {
      const outcomes = senders.map((sender) => overlapOutcome(sender.id));
      this.count(outcomes, request.tenantId, source);
      this.logOverlap(request.tenantId, channel, source);
      return { ...base, invitationStatus: invitation.status, outcomes };
    }
    this.inFlight.add(flightKey);
    try {
      const pass = await this.prepare({ request, source, claim, channel, base, invitation }, senders);
      const outcomes: InvitationSenderOutcome[] = [];
      for (const sender of senders)
        outcomes.push(await this.record(pass, sender, await this.send(pass, sender)));
      this.count(outcomes, request.tenantId, source);
      return { ...base, invitationStatus: await this.markSentOnDispatch(pass, outcomes), outcomes };
    } finally {
      this.inFlight.delete(flightKey);
    }
  }

  /** The invitation (404 unknown, 409 not live) and the senders the dispatch names (409 none). */
  private async deliverable(request: InvitationDispatchRequest) {
    const invitation = await this.deps.governance.getInvitation(request.tenantId, request.invitationId);
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
    return { invitation, senders };
  }

  /**
   * Starts a pass: logs it, resolves the recipient, records a recipient the dispatch supplied, and mints a new
   * acceptance secret per sender of the channel, all stored (as hashes) in one write before any message goes
   * out: each replaces its sender's previous one, so the newest message of each sender is the one that works,
   * and a failed write sends nothing.
   */
  private async prepare(
    pass: Omit<DispatchPass, 'metadata' | 'recipient' | 'secrets'>,
    senders: readonly InvitationSender[],
  ): Promise<DispatchPass> {
    const { request, channel, source } = pass;
    const { governance } = this.deps;
    this.deps.logger.log({
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
    const recipient = resolveInvitationRecipient(pass.invitation, metadata);
    if (suppliesRecipient(metadata)) {
      await governance.recordSuppliedRecipient({
        tenantId: request.tenantId,
        invitationId: request.invitationId,
        actor: request.actor ?? null,
        correlationId: request.correlationId ?? null,
      });
    }
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
    return { ...pass, metadata, recipient, secrets };
  }

  /** One sender's attempt: suppressed for an unsupported channel, a thrown sender a retryable failure. */
  private async send(pass: DispatchPass, sender: InvitationSender): Promise<SentAttempt> {
    const { request, channel } = pass;
    const key = retryKey(request.tenantId, request.invitationId, channel, sender.id);
    const attempt = ((await this.deps.queue.get(key))?.value.attempts ?? 0) + 1;
    if (!sender.supportedChannels.includes(channel)) {
      return {
        key,
        attempt,
        acceptanceSecret: null,
        decision: 'provider-managed',
        result: { outcome: 'suppressed', reason: 'channel-unsupported' },
      };
    }
    const acceptanceSecret = pass.secrets[sender.id]!;
    try {
      const result = await sender.send({
        invitation: pass.invitation,
        channel,
        metadata: pass.metadata,
        recipient: pass.recipient,
        acceptanceSecret,
        dispatchId: pass.base.dispatchId,
        attempt,
        signal: sendSignal(request.signal, pass.claim?.signal),
      });
      return { key, attempt, acceptanceSecret, decision: result.decision ?? 'sender', result };
    } catch {
      return {
        key,
        attempt,
        acceptanceSecret,
        decision: 'sender',
        result: { outcome: 'sender-failed', reason: 'sender-exception', retryable: true },
      };
    }
  }

  /**
   * Records one sender's outcome: a failure offered to the retry queue, a success clearing a queued retry, the
   * run record (sanitized metadata), the log and the status book. Under a claim lost meanwhile, nothing.
   */
  private async record(
    pass: DispatchPass,
    sender: InvitationSender,
    sent: SentAttempt,
  ): Promise<InvitationSenderOutcome> {
    const { request, channel, claim } = pass;
    const { result, decision, attempt } = sent;
    if (claim && !claim.held()) {
      this.logClaimLost(request.tenantId, sender.id, channel, claim);
      return unrecordedOutcome(sender.id, result, decision, attempt);
    }
    const retryQueued = await this.settleQueue(pass, sender.id, sent);
    const outcome: InvitationSenderOutcome = {
      senderId: sender.id,
      outcome: result.outcome,
      reason: result.reason ?? null,
      decision,
      attempt,
      providerMessageId: result.providerMessageId ?? null,
      retryQueued,
      metadata: sanitizeSendMetadata(result.metadata, forbiddenValues(pass, sender, sent.acceptanceSecret)),
    };
    const record: DeliveryRunRecord = {
      ...outcome,
      ...pass.base,
      source: pass.source,
      atUtc: this.deps.now().toISOString(),
      ...(result.messageId ? { messageId: result.messageId.slice(0, 200) } : {}),
    };
    await this.deps.runs.put(sent.key, record);
    logOutcome(this.deps.logger, outcome, request.tenantId, channel, pass.source);
    await this.deps.onOutcome(record);
    return outcome;
  }

  /** A failure offered to the retry queue (answers whether it was queued); any other outcome completes it. */
  private async settleQueue(pass: DispatchPass, senderId: string, sent: SentAttempt): Promise<boolean> {
    const { request, channel } = pass;
    const { result, attempt } = sent;
    if (result.outcome === 'sender-failed') {
      const queued = await this.deps.queue.recordFailure(
        {
          tenantId: request.tenantId,
          invitationId: request.invitationId,
          channel,
          senderId,
          lastReason: result.reason ?? null,
          metadata: pass.metadata,
        },
        attempt,
        result.retryable !== false,
      );
      logQueue(this.deps.logger, queued, request.tenantId, senderId, channel, attempt);
      return queued === 'queued';
    }
    if (await this.deps.queue.complete(sent.key)) {
      this.deps.logger.log({
        level: 'info',
        eventId: deliveryEventIds.retrySucceeded,
        category: 'tenant-governance.delivery',
        message: `Queued invitation delivery ${result.outcome} on attempt ${attempt} (tenant ${request.tenantId}, sender ${senderId})`,
        tenantId: request.tenantId,
        senderId,
        attempt,
        outcome: result.outcome,
      });
    }
    return false;
  }

  /** The first recorded dispatched outcome marks the invitation sent; answers the invitation's status. */
  private async markSentOnDispatch(
    pass: DispatchPass,
    outcomes: readonly InvitationSenderOutcome[],
  ): Promise<string> {
    const dispatched = outcomes.some(
      (outcome) => outcome.outcome === 'dispatched' && outcome.reason !== claimLostReason,
    );
    if (!dispatched) return pass.invitation.status;
    const marked = await this.deps.governance.markInvitationSent(
      pass.request.tenantId,
      pass.request.invitationId,
    );
    return marked.invitation?.status ?? pass.invitation.status;
  }

  private logOverlap(tenantId: string, channel: string, source: string): void {
    this.deps.logger.log({
      level: 'info',
      eventId: deliveryEventIds.dispatchAlreadyRunning,
      category: 'tenant-governance.delivery',
      message: `Invitation dispatch already running (tenant ${tenantId}, channel ${channel}, source ${source})`,
      tenantId,
      channel,
      source,
    });
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

  private count(outcomes: readonly InvitationSenderOutcome[], tenantId: string, source: string): void {
    this.counts.runCount++;
    for (const outcome of outcomes) {
      this.counts.outcomes[outcome.outcome]++;
      this.counts.latestOutcome = outcome.outcome;
      this.deps.counter.add(1, { outcome: outcome.outcome, senderId: outcome.senderId, tenantId, source });
    }
  }
}

export { claimLostReason } from './dispatch-pass';
