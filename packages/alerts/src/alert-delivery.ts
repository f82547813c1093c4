import { keepLeaseRenewed, type KeyedStore, type StoreMirror } from '@corekit/abstractions';
import type { ClaimedOutboxMessage, EventMessage, KeyedOutboxStore } from '@corekit/eventing';
import {
  severityAtLeast,
  type AlertNotification,
  type Notifier,
  type NotifierOutcome,
  type NotifierRegistry,
} from '@corekit/notifier-kit';
import type { AlertsOptions } from './alerts-options';
import type { DeliveryEntry } from './alerts-model';
import { utc } from './alerts-model';

/** What a staged outbox message carries: the notification and the one notifier target it is for. */
interface DeliveryPayload {
  readonly notifierId: string;
  readonly notification: AlertNotification;
}

/** Reports of the delivery to the pack's story, log and counters. */
export interface DeliveryReporter {
  staged(entry: DeliveryEntry): void;
  attempted(entry: DeliveryEntry, outcome: NotifierOutcome): void;
}

export interface AlertDeliverySettings {
  readonly delivery: AlertsOptions['Delivery'];
  readonly instanceId: string;
  readonly now: () => number;
}

/** Whether `notifier` takes `notification`: its minimum severity, and resolved ones only when it wants them. */
export function admits(notifier: Notifier, notification: AlertNotification): boolean {
  if (notification.status === 'resolved' && !notifier.sendResolved) return false;
  return severityAtLeast(notification.severity, notifier.minimumSeverity);
}

/**
 * Delivery of notifications through the eventing outbox machinery (`KeyedOutboxStore` on the pack's own engine
 * store `alerts-outbox`): each notification is staged once per notifier target (the message id is
 * `<notificationId>.<notifierId>`, so staging again changes nothing), claimed under a lease by exactly one replica
 * (compare-and-set), sent, then completed, retried with backoff or failed. A replica that dies mid-send stops
 * holding its claim when the lease runs out, and another replica sends the notification. The delivery log
 * (`alerts-deliveries`) keeps each delivery's attempts and outcome.
 */
export class AlertDelivery {
  constructor(
    private readonly outbox: KeyedOutboxStore,
    private readonly log: KeyedStore<DeliveryEntry>,
    private readonly logMirror: StoreMirror<DeliveryEntry>,
    private readonly notifiers: NotifierRegistry,
    private readonly settings: AlertDeliverySettings,
    private readonly reporter: DeliveryReporter,
  ) {}

  /** The lease of a claim: the configured one, at least twice the longest notifier timeout. */
  get leaseMs(): number {
    const longest = Math.max(0, ...this.notifiers.list().map((notifier) => notifier.timeoutMs));
    return Math.max(this.settings.delivery.Lease, longest * 2);
  }

  entries(): DeliveryEntry[] {
    return this.logMirror.values();
  }

  /** Stages `notification` for every notifier target that takes it. */
  async stage(notification: AlertNotification): Promise<void> {
    const now = this.settings.now();
    for (const notifier of this.notifiers.list()) {
      if (!admits(notifier, notification)) continue;
      const deliveryId = `${notification.notificationId}.${notifier.id}`;
      const message: EventMessage = {
        publicationId: deliveryId,
        channelId: 'alerts',
        eventType: `alert-${notification.status}`,
        payload: { notifierId: notifier.id, notification } satisfies DeliveryPayload,
        occurredAtUtc: utc(now),
        contentType: 'application/json',
        correlationId: notification.incidentId,
        tenantId: null,
        headers: {},
        metadata: {},
        actorId: null,
      };
      if (!(await this.outbox.stage(message))) continue;
      const entry: DeliveryEntry = {
        deliveryId,
        notificationId: notification.notificationId,
        incidentId: notification.incidentId,
        notifierId: notifier.id,
        notifierKind: notifier.kind,
        status: notification.status,
        severity: notification.severity,
        outcome: 'pending',
        attempts: 0,
        responseCode: null,
        lastError: null,
        nextAttemptAtUtc: utc(now),
        stagedAtUtc: utc(now),
        lastAttemptAtUtc: null,
        deliveredAtUtc: null,
        lastAttemptBy: null,
      };
      await this.writeLog(entry);
      this.reporter.staged(entry);
    }
  }

  /**
   * One delivery pass: claims due notifications (at most BatchSize) and sends them concurrently, renewing the
   * claims every third of the lease while the sends run (`keepLeaseRenewed` over the outbox's `extend`). A claim
   * lost meanwhile (taken over after it lapsed) settles nothing: its new holder records the outcome.
   */
  async deliverDue(signal: AbortSignal): Promise<number> {
    const { instanceId: owner, now } = this.settings;
    const leaseMs = this.leaseMs;
    const claimed = await this.outbox.claim(owner, this.settings.delivery.BatchSize, leaseMs);
    if (claimed.length === 0) return 0;
    let held: readonly string[] = claimed.map((message) => message.id);
    const renewal = keepLeaseRenewed({
      expiresAtMs: now() + leaseMs,
      renewEveryMs: Math.max(100, Math.floor(leaseMs / 3)),
      now,
      renew: async () => {
        held = await this.outbox.extend(held, owner, leaseMs);
        return held.length > 0 ? now() + leaseMs : null;
      },
    });
    try {
      const sendSignal = AbortSignal.any([signal, renewal.signal]);
      const stillHeld = (id: string) => () => renewal.held() && held.includes(id);
      await Promise.all(
        claimed.map((message) => this.deliverOne(message, sendSignal, signal, stillHeld(message.id))),
      );
    } finally {
      await renewal.stop();
    }
    return claimed.length;
  }

  private backoffMs(attempt: number, retryAfterMs: number | null): number {
    const { InitialBackoff, MaxBackoff } = this.settings.delivery;
    const exponential = Math.min(MaxBackoff, InitialBackoff * 2 ** Math.max(0, attempt - 1));
    return Math.max(exponential, retryAfterMs ?? 0);
  }

  private async deliverOne(
    claimed: ClaimedOutboxMessage,
    sendSignal: AbortSignal,
    engineSignal: AbortSignal,
    stillHeld: () => boolean,
  ): Promise<void> {
    const owner = this.settings.instanceId;
    const payload = claimed.message.payload as DeliveryPayload;
    const notifier = this.notifiers.get(payload.notifierId);
    const outcome: NotifierOutcome = notifier
      ? await notifier.send(payload.notification, sendSignal)
      : {
          outcome: 'terminal',
          responseCode: null,
          reason: `notifier target "${payload.notifierId}" is not registered`,
        };
    if (!stillHeld()) return; // taken over by another replica after the claim lapsed: it records the outcome
    if (engineSignal.aborted && outcome.outcome !== 'delivered') {
      // The engine is stopping: give the notification back untouched, another start or replica sends it.
      await this.outbox.release(claimed.id, owner);
      return;
    }
    const now = this.settings.now();
    const attempt = claimed.attempt;
    const changes: Partial<DeliveryEntry> = {
      attempts: attempt,
      responseCode: outcome.responseCode,
      lastAttemptAtUtc: utc(now),
      lastAttemptBy: owner,
    };
    let entry: Partial<DeliveryEntry>;
    if (outcome.outcome === 'delivered') {
      await this.outbox.complete(claimed.id, owner);
      entry = {
        ...changes,
        outcome: 'delivered',
        deliveredAtUtc: utc(now),
        nextAttemptAtUtc: null,
        lastError: null,
      };
    } else if (outcome.outcome === 'retryable' && attempt < this.settings.delivery.MaxAttempts) {
      const next = now + this.backoffMs(attempt, outcome.retryAfterMs);
      await this.outbox.retry(claimed.id, owner, new Date(next), outcome.reason);
      entry = { ...changes, outcome: 'retrying', nextAttemptAtUtc: utc(next), lastError: outcome.reason };
    } else {
      await this.outbox.fail(claimed.id, owner, outcome.reason);
      const reason =
        outcome.outcome === 'retryable'
          ? `${outcome.reason} (attempt ${attempt} was the last)`
          : outcome.reason;
      entry = { ...changes, outcome: 'failed', nextAttemptAtUtc: null, lastError: reason };
    }
    const written = await this.updateLog(claimed.id, entry, payload);
    this.reporter.attempted(written, outcome);
  }

  private async writeLog(entry: DeliveryEntry): Promise<DeliveryEntry> {
    const result = await this.log.put(entry.deliveryId, entry, { ttlMs: this.settings.delivery.Retention });
    if (result.written) this.logMirror.remember(result.record);
    return entry;
  }

  private async updateLog(
    deliveryId: string,
    changes: Partial<DeliveryEntry>,
    payload: DeliveryPayload,
  ): Promise<DeliveryEntry> {
    const current = (await this.log.get(deliveryId))?.value ?? {
      deliveryId,
      notificationId: payload.notification.notificationId,
      incidentId: payload.notification.incidentId,
      notifierId: payload.notifierId,
      notifierKind: this.notifiers.get(payload.notifierId)?.kind ?? 'unknown',
      status: payload.notification.status,
      severity: payload.notification.severity,
      outcome: 'pending' as const,
      attempts: 0,
      responseCode: null,
      lastError: null,
      nextAttemptAtUtc: null,
      stagedAtUtc: utc(this.settings.now()),
      lastAttemptAtUtc: null,
      deliveredAtUtc: null,
      lastAttemptBy: null,
    };
    return this.writeLog({ ...current, ...changes });
  }
}
