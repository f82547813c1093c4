import { StoreMirror, type KeyedStore, type Logger } from '@corekit/abstractions';
import type { DeliveryRunRecord } from './delivery-dispatcher';
import { deliveryEventIds } from './delivery-event-ids';
import type { DeliveryOptions } from './delivery-options';
import { byReceived, listAttention, queryObservations, statusKey } from './delivery-status-queries';
import {
  attentionRemediation,
  deliveryObservationInputSchema,
  deliveryStatusRank,
  terminalDeliveryStatuses,
  type AttentionCategory,
  type AttentionItem,
  type DeliveryObservation,
  type DeliveryObservationQuery,
  type DeliveryObservationQueryResult,
  type DeliveryStatus,
  type InvitationDeliveryStatusRecord,
  type InvitationDeliveryStatusService,
  type ObservationSubmitResult,
} from './delivery-status-types';
import type { TenantGovernance } from './tenant-governance';

/**
 * Whether `incoming` replaces `current`. A terminal status is never replaced by a non-terminal one, and
 * among terminals only by a higher rank; a non-terminal is replaced by any terminal, and by a non-terminal
 * observed at the same time or later (out-of-order older events do not move it back).
 */
export function supersedes(
  current: { status: DeliveryStatus | null; observedAtUtc: string | null },
  incoming: { status: DeliveryStatus; observedAtUtc: string },
): boolean {
  if (current.status === null) return true;
  const currentTerminal = terminalDeliveryStatuses.includes(current.status);
  const incomingTerminal = terminalDeliveryStatuses.includes(incoming.status);
  if (currentTerminal)
    return incomingTerminal && deliveryStatusRank[incoming.status] > deliveryStatusRank[current.status];
  if (incomingTerminal) return true;
  return incoming.observedAtUtc >= (current.observedAtUtc ?? '');
}

export interface StatusBookCounts {
  /** Observations in the store, as the read copy holds them (this process's writes at once, others' by the feed). */
  readonly observationCount: number;
  statusReportedCount: number;
  latestStatus: DeliveryStatus | null;
  latestObservedAtUtc: string | null;
  latestObservation: { providerKey: string; status: DeliveryStatus; observedAtUtc: string } | null;
}

/**
 * The ids a callback may name a dispatched message by: the provider's message id and the sender's own
 * (core) message id, newest last, each once, the last 10 kept. A provider that answers no id (Microsoft
 * Graph) is matched by the core message id alone.
 */
function dispatchedIds(
  current: readonly string[],
  run: { providerMessageId: string | null; messageId?: string | null },
): string[] {
  const added = [run.providerMessageId, run.messageId].filter(
    (id): id is string => typeof id === 'string' && id.length > 0,
  );
  return [...current.filter((id) => !added.includes(id)), ...added].slice(-10);
}

/** The outcome of one submitted observation. */
type SubmitOutcome = ObservationSubmitResult['outcomes'][number];

/** The reconciler and observation store (see `InvitationDeliveryStatusService`). */
export class DeliveryStatusBook implements InvitationDeliveryStatusService {
  readonly categories = attentionRemediation;
  readonly counts: StatusBookCounts;
  private mirror: StoreMirror<DeliveryObservation>;

  constructor(
    private readonly observations: KeyedStore<DeliveryObservation>,
    private readonly statuses: KeyedStore<InvitationDeliveryStatusRecord>,
    private readonly governance: TenantGovernance,
    private readonly settings: DeliveryOptions,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {
    this.mirror = new StoreMirror(observations, { refreshMs: 5000 });
    const observationCount = () => this.mirror.records().length;
    this.counts = {
      get observationCount() {
        return observationCount();
      },
      statusReportedCount: 0,
      latestStatus: null,
      latestObservedAtUtc: null,
      latestObservation: null,
    };
  }

  /**
   * Takes `copy` as the read copy of the observations that `counts.observationCount` counts and this book's
   * writes update: the delivery registration passes one of the governance `SharedStateMirrors` (loaded at start,
   * following the change feed of a shared store). Before, the book keeps a copy of its own, read by `load()`.
   */
  useObservationCopy(copy: StoreMirror<DeliveryObservation>): void {
    this.mirror = copy;
  }

  /** Reads every observation into the copy (a shared store's copy otherwise follows the change feed). */
  load(): Promise<void> {
    return this.mirror.load();
  }

  private emptyStatus(tenantId: string, invitationId: string): InvitationDeliveryStatusRecord {
    return {
      tenantId,
      invitationId,
      status: null,
      statusObservationId: null,
      providerKey: null,
      providerMessageId: null,
      observedAtUtc: null,
      observationCount: 0,
      dispatchedAtUtc: null,
      dispatchCount: 0,
      dispatchedProviderMessageIds: [],
      dispatchFailureReason: null,
      dispatchFailedAtUtc: null,
      updatedAtUtc: this.now().toISOString(),
    };
  }

  /** Records a dispatcher outcome: dispatches (for no-status-after-dispatch) and spent failures. */
  async recordRun(run: DeliveryRunRecord): Promise<void> {
    if (run.outcome !== 'dispatched' && !(run.outcome === 'sender-failed' && !run.retryQueued)) return;
    const key = statusKey(run.tenantId, run.invitationId);
    const current = (await this.statuses.get(key))?.value ?? this.emptyStatus(run.tenantId, run.invitationId);
    const next: InvitationDeliveryStatusRecord =
      run.outcome === 'dispatched'
        ? {
            ...current,
            dispatchedAtUtc: run.atUtc,
            dispatchCount: current.dispatchCount + 1,
            dispatchedProviderMessageIds: dispatchedIds(current.dispatchedProviderMessageIds, run),
            dispatchFailureReason: null,
            dispatchFailedAtUtc: null,
            updatedAtUtc: run.atUtc,
          }
        : {
            ...current,
            dispatchFailureReason: run.reason ?? 'sender-failed',
            dispatchFailedAtUtc: run.atUtc,
            updatedAtUtc: run.atUtc,
          };
    await this.statuses.put(key, next);
  }

  async submit(
    inputs: readonly unknown[],
    options: { readonly requireProviderMessageMatch?: boolean } = {},
  ): Promise<ObservationSubmitResult> {
    const outcomes: SubmitOutcome[] = [];
    for (const [index, input] of inputs.entries()) outcomes.push(await this.submitOne(index, input, options));
    const count = (outcome: string) => outcomes.filter((item) => item.outcome === outcome).length;
    const accepted = count('reconciled') + count('recorded-precedence-kept');
    const duplicateEvents = count('duplicate');
    return { accepted, duplicateEvents, rejected: outcomes.length - accepted - duplicateEvents, outcomes };
  }

  /**
   * One observation: refused when invalid, a duplicate (its observation id is stored), for an unknown
   * invitation or, with `requireProviderMessageMatch`, for a provider message the invitation was not
   * dispatched as; otherwise stored and reconciled.
   */
  private async submitOne(
    index: number,
    input: unknown,
    options: { readonly requireProviderMessageMatch?: boolean },
  ): Promise<SubmitOutcome> {
    const parsed = deliveryObservationInputSchema.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
      );
      this.logRejected('invalid', null);
      return { index, observationId: null, outcome: 'invalid', issues };
    }
    const value = parsed.data;
    const observationId = `${value.providerKey}:${value.providerEventId}`;
    if (await this.observations.get(observationId)) {
      this.logger.log({
        level: 'info',
        eventId: deliveryEventIds.observationDuplicate,
        category: 'tenant-governance.delivery',
        message: `Duplicate delivery observation skipped (provider ${value.providerKey}, tenant ${value.tenantId})`,
        providerKey: value.providerKey,
        tenantId: value.tenantId,
      });
      return { index, observationId, outcome: 'duplicate' };
    }
    if (!(await this.governance.getInvitation(value.tenantId, value.invitationId))) {
      this.logRejected('unknown-invitation', value.providerKey);
      return { index, observationId, outcome: 'unknown-invitation' };
    }
    const key = statusKey(value.tenantId, value.invitationId);
    const current =
      (await this.statuses.get(key))?.value ?? this.emptyStatus(value.tenantId, value.invitationId);
    if (
      options.requireProviderMessageMatch &&
      (!value.providerMessageId || !current.dispatchedProviderMessageIds.includes(value.providerMessageId))
    ) {
      this.logRejected('provider-message-mismatch', value.providerKey);
      return { index, observationId, outcome: 'provider-message-mismatch' };
    }
    const receivedAtUtc = this.now().toISOString();
    const observation: DeliveryObservation = {
      observationId,
      providerKey: value.providerKey,
      providerEventId: value.providerEventId,
      tenantId: value.tenantId,
      invitationId: value.invitationId,
      channel: value.channel ?? null,
      senderId: value.senderId ?? null,
      status: value.status,
      providerMessageId: value.providerMessageId ?? null,
      observedAtUtc: value.observedAtUtc ? new Date(value.observedAtUtc).toISOString() : receivedAtUtc,
      receivedAtUtc,
      reason: value.reason ?? null,
      source: value.source ?? null,
    };
    await this.store(observation);
    const { next, wins } = await this.reconcile(key, current, observation);
    return {
      index,
      observationId,
      outcome: wins ? 'reconciled' : 'recorded-precedence-kept',
      reconciledStatus: next.status,
    };
  }

  /**
   * Reconciles a stored observation into the invitation's status record: it wins when it supersedes the current
   * status (`supersedes`); counted and logged (4545 reconciled, 4556 precedence kept) either way.
   */
  private async reconcile(
    key: string,
    current: InvitationDeliveryStatusRecord,
    observation: DeliveryObservation,
  ): Promise<{ next: InvitationDeliveryStatusRecord; wins: boolean }> {
    const wins = supersedes(current, observation);
    const next: InvitationDeliveryStatusRecord = {
      ...current,
      observationCount: current.observationCount + 1,
      updatedAtUtc: observation.receivedAtUtc,
      ...(wins
        ? {
            status: observation.status,
            statusObservationId: observation.observationId,
            providerKey: observation.providerKey,
            providerMessageId: observation.providerMessageId ?? current.providerMessageId,
            observedAtUtc: observation.observedAtUtc,
          }
        : {}),
    };
    await this.statuses.put(key, next);
    this.counts.statusReportedCount++;
    this.counts.latestStatus = observation.status;
    this.counts.latestObservedAtUtc = observation.observedAtUtc;
    this.counts.latestObservation = {
      providerKey: observation.providerKey,
      status: observation.status,
      observedAtUtc: observation.observedAtUtc,
    };
    this.logger.log({
      level: 'info',
      eventId: wins ? deliveryEventIds.statusReconciled : deliveryEventIds.statusPrecedenceKept,
      category: 'tenant-governance.delivery',
      message: wins
        ? `Invitation delivery status ${current.status ?? 'none'} -> ${observation.status} (provider ${observation.providerKey}, tenant ${observation.tenantId})`
        : `Invitation delivery status kept ${current.status} over ${observation.status} (provider ${observation.providerKey}, tenant ${observation.tenantId})`,
      providerKey: observation.providerKey,
      tenantId: observation.tenantId,
      fromStatus: current.status,
      observedStatus: observation.status,
      status: next.status,
    });
    return { next, wins };
  }

  private logRejected(outcome: string, providerKey: string | null): void {
    this.logger.log({
      level: 'info',
      eventId: deliveryEventIds.observationRejected,
      category: 'tenant-governance.delivery',
      message: `Delivery observation not recorded: ${outcome}${providerKey ? ` (provider ${providerKey})` : ''}`,
      outcome,
      providerKey,
    });
  }

  /** Stores an observation and drops the oldest beyond the history limit. */
  private async store(observation: DeliveryObservation): Promise<void> {
    const limit = this.settings.InvitationDeliveryObservationHistoryLimit;
    if ((await this.observations.count()) >= limit) {
      const all = (await this.observations.list()).map((record) => record.value);
      all.sort(byReceived);
      const excess = all.length - limit + 1;
      for (const old of all.slice(0, excess)) {
        if (await this.observations.delete(old.observationId)) this.mirror.forget(old.observationId);
      }
      this.logger.log({
        level: 'debug',
        eventId: deliveryEventIds.observationHistoryTrimmed,
        category: 'tenant-governance.delivery',
        message: `Delivery observation history trimmed by ${excess} to ${limit}`,
        dropped: excess,
        limit,
      });
    }
    const written = await this.observations.put(observation.observationId, observation);
    if (written.written) this.mirror.remember(written.record);
    this.logger.log({
      level: 'debug',
      eventId: deliveryEventIds.observationRecorded,
      category: 'tenant-governance.delivery',
      message: `Delivery observation recorded (provider ${observation.providerKey}, status ${observation.status}, tenant ${observation.tenantId})`,
      providerKey: observation.providerKey,
      status: observation.status,
      tenantId: observation.tenantId,
    });
  }

  async hasObservation(observationId: string): Promise<boolean> {
    return (await this.observations.get(observationId)) !== undefined;
  }

  async getStatus(tenantId: string, invitationId: string) {
    return (await this.statuses.get(statusKey(tenantId, invitationId)))?.value;
  }

  async attention(
    filter: { tenantId?: string; category?: AttentionCategory; remediationAction?: string } = {},
  ): Promise<readonly AttentionItem[]> {
    const records = (await this.statuses.list()).map((record) => record.value);
    return listAttention(records, filter, this.settings, this.now());
  }

  async query(query: DeliveryObservationQuery): Promise<DeliveryObservationQueryResult> {
    const attention = await this.attention({
      ...(query.tenantId ? { tenantId: query.tenantId } : {}),
      ...(query.attentionCategory ? { category: query.attentionCategory } : {}),
      ...(query.remediationAction ? { remediationAction: query.remediationAction } : {}),
    });
    const observations = (await this.observations.list()).map((record) => record.value);
    return queryObservations(observations, attention, query);
  }
}
