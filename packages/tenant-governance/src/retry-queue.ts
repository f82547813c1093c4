import type { KeyedStore } from '@corekit/abstractions';
import type { DeliveryOptions } from './delivery-options';

/**
 * One queued retry: a retryable sender-failed outcome under its stable tenant + invitation + channel +
 * sender key. It keeps the dispatch metadata of the failed dispatch (which may name a recipient address,
 * first in the resolution order), so the queue store is private state: it is never listed on a surface
 * or in a log, only counted.
 */
export interface RetryQueueEntry {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel: string;
  readonly senderId: string;
  /** Attempts made so far, the first dispatch included. */
  readonly attempts: number;
  readonly lastReason: string | null;
  readonly firstQueuedAtUtc: string;
  readonly nextAttemptAtUtc: string;
  readonly metadata: Readonly<Record<string, string>>;
}

/** What happened to a failure offered to the queue. */
export type RetryQueueDecision = 'queued' | 'queue-full' | 'exhausted' | 'disabled' | 'not-retryable';

/** The stable key of a retry (each part URI-encoded, so no part can forge another's boundary). */
export function retryKey(tenantId: string, invitationId: string, channel: string, senderId: string): string {
  return [tenantId, invitationId, channel, senderId].map(encodeURIComponent).join('/');
}

/** Counts of the queue since start, for the surface (per process). */
export interface RetryQueueCounts {
  queuedTotal: number;
  completedTotal: number;
  exhaustedTotal: number;
  abandonedTotal: number;
  fullTotal: number;
  latestOutcome: string | null;
}

/**
 * The retry queue over a keyed store (the engine's store provider, or the local file when
 * `InvitationDeliveryRetryQueueFilePath` is set). Bounded by MaxItems; each key holds one entry whatever
 * the number of failures; the attempt budget is MaxAttempts per key.
 */
export class RetryQueue {
  readonly counts: RetryQueueCounts = {
    queuedTotal: 0,
    completedTotal: 0,
    exhaustedTotal: 0,
    abandonedTotal: 0,
    fullTotal: 0,
    latestOutcome: null,
  };
  /** Entries by tenant (cached for the surface; refreshed after every write and at load). */
  private perTenant: Record<string, number> = {};
  private size = 0;

  constructor(
    readonly store: KeyedStore<RetryQueueEntry>,
    private readonly settings: DeliveryOptions,
    private readonly now: () => Date,
  ) {}

  get enabled(): boolean {
    return this.settings.EnableInvitationDeliveryRetryQueue;
  }

  get count(): number {
    return this.size;
  }

  get tenantCounts(): Readonly<Record<string, number>> {
    return this.perTenant;
  }

  async refresh(): Promise<void> {
    const entries = await this.store.list();
    this.size = entries.length;
    this.perTenant = {};
    for (const entry of entries) {
      this.perTenant[entry.value.tenantId] = (this.perTenant[entry.value.tenantId] ?? 0) + 1;
    }
  }

  get(key: string) {
    return this.store.get(key);
  }

  /** Entries due now (nextAttemptAtUtc reached), oldest due first, at most `limit`. */
  async due(limit: number): Promise<Array<{ key: string; entry: RetryQueueEntry }>> {
    const now = this.now().toISOString();
    return (await this.store.list())
      .filter((record) => record.value.nextAttemptAtUtc <= now)
      .sort((a, b) => (a.value.nextAttemptAtUtc < b.value.nextAttemptAtUtc ? -1 : 1))
      .slice(0, limit)
      .map((record) => ({ key: record.key, entry: record.value }));
  }

  /** Offers a failed attempt (`attempt` = attempts made including this one) to the queue. */
  async recordFailure(
    entry: Omit<RetryQueueEntry, 'attempts' | 'firstQueuedAtUtc' | 'nextAttemptAtUtc'>,
    attempt: number,
    retryable: boolean,
  ): Promise<RetryQueueDecision> {
    if (!this.enabled) return 'disabled';
    const key = retryKey(entry.tenantId, entry.invitationId, entry.channel, entry.senderId);
    const current = await this.store.get(key);
    if (!retryable || attempt >= this.settings.InvitationDeliveryRetryMaxAttempts) {
      if (current) await this.store.delete(key);
      const decision = retryable ? 'exhausted' : 'not-retryable';
      if (retryable) this.counts.exhaustedTotal++;
      this.counts.latestOutcome = decision;
      await this.refresh();
      return decision;
    }
    if (!current && (await this.store.count()) >= this.settings.InvitationDeliveryRetryMaxItems) {
      this.counts.fullTotal++;
      this.counts.latestOutcome = 'queue-full';
      return 'queue-full';
    }
    const now = this.now();
    const next = new Date(now.getTime() + this.settings.InvitationDeliveryRetryDelaySeconds * 1000);
    await this.store.put(key, {
      ...entry,
      attempts: attempt,
      firstQueuedAtUtc: current?.value.firstQueuedAtUtc ?? now.toISOString(),
      nextAttemptAtUtc: next.toISOString(),
    });
    if (!current) this.counts.queuedTotal++;
    this.counts.latestOutcome = 'queued';
    await this.refresh();
    return 'queued';
  }

  /** Removes the key after a dispatched or suppressed attempt; answers whether an entry was there. */
  async complete(key: string): Promise<boolean> {
    if (!(await this.store.delete(key))) return false;
    this.counts.completedTotal++;
    this.counts.latestOutcome = 'completed';
    await this.refresh();
    return true;
  }

  /** Drops an entry whose invitation is gone or no longer deliverable. */
  async abandon(key: string): Promise<void> {
    if (await this.store.delete(key)) {
      this.counts.abandonedTotal++;
      this.counts.latestOutcome = 'abandoned';
      await this.refresh();
    }
  }
}
