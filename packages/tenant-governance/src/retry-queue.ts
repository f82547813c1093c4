import {
  keepLeaseRenewed,
  StoreMirror,
  type KeyedStore,
  type LeaseLossReason,
  type StoredRecord,
} from '@corekit/abstractions';
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
  /**
   * The replica retrying the entry now (`RetryQueue.ownerId`), set by a compare-and-set claim; absent or null
   * while the entry waits. Any write of the outcome (rescheduled, completed, exhausted) clears it.
   */
  readonly owner?: string | null;
  /** Until when the owner's claim holds; after it another replica may take the entry over (once). */
  readonly leaseExpiresAtUtc?: string | null;
}

/** A due entry as read from the store, with the version its claim compares against. */
export interface DueRetry {
  readonly key: string;
  readonly entry: RetryQueueEntry;
  readonly version: number;
}

/**
 * A claim kept renewed while its retry is in flight (`RetryQueue.keepClaim`): `signal` aborts the moment the
 * claim is known lost, and `held()` says whether the outcome may still be recorded under it.
 */
export interface RetryClaimRenewal {
  readonly signal: AbortSignal;
  held(): boolean;
  /** Why the claim was lost (`taken-over`, `expired`); null while it holds. */
  readonly lostReason: LeaseLossReason | null;
  /** Stops renewing (the retry ended). */
  stop(): Promise<void>;
}

/** The answer of a claim: `claimed` (or `taken-over` from an owner whose lease ended), or lost to another replica. */
export type RetryClaim = 'claimed' | 'taken-over' | 'lost' | 'exhausted';

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
  /** Claims this process won, took over from an owner whose lease ended, and lost to another replica. */
  claimedTotal: number;
  takenOverTotal: number;
  claimLostTotal: number;
  /** Retries whose claim was lost while their send was in flight (their outcome was not recorded). */
  claimLostDuringSendTotal: number;
}

/**
 * The retry queue over a keyed store (the engine's store provider; the local file of
 * `InvitationDeliveryRetryQueueFilePath` only when that provider is not shared). Bounded by MaxItems; each
 * key holds one entry whatever the number of failures; the attempt budget is MaxAttempts per key. A pass
 * claims each due entry before retrying it (owner + lease, compare-and-set on the entry's version), so on a
 * shared store one replica at a time retries an entry; an entry whose owner died is taken over once its
 * lease ended, by one replica (the compare-and-set lets one win), the interrupted attempt counted.
 */
export class RetryQueue {
  readonly counts: RetryQueueCounts = {
    queuedTotal: 0,
    completedTotal: 0,
    exhaustedTotal: 0,
    abandonedTotal: 0,
    fullTotal: 0,
    latestOutcome: null,
    claimedTotal: 0,
    takenOverTotal: 0,
    claimLostTotal: 0,
    claimLostDuringSendTotal: 0,
  };
  /** Claims this process holds now: the entry as its claim (or last renewal) wrote it, with that version. */
  private readonly holding = new Map<string, { readonly entry: RetryQueueEntry; readonly version: number }>();

  /**
   * @param ownerId This process's claim owner (host name, process id and a random part): unique per
   * registration, so two engines in one process never share claims either.
   * @param shared Whether the queue's store is shared by replicas (read at first claim). Only then are
   * entries claimed: a Memory or File queue belongs to one process, whose pass guard suffices, and a claim
   * left by a killed process would only delay its successor's retries by a lease.
   * @param mirror The read copy the surface counts come from (one of the governance `SharedStateMirrors`,
   * following the change feed of a shared store); it takes every write of this queue at once.
   */
  constructor(
    readonly store: KeyedStore<RetryQueueEntry>,
    private readonly settings: DeliveryOptions,
    private readonly now: () => Date,
    readonly ownerId: string,
    private readonly shared: () => boolean = () => false,
    private readonly mirror: StoreMirror<RetryQueueEntry> = new StoreMirror(store, { refreshMs: 5000 }),
  ) {}

  get enabled(): boolean {
    return this.settings.EnableInvitationDeliveryRetryQueue;
  }

  /** Entries in the queue, as the read copy holds them (this process's writes at once, others' by the feed). */
  get count(): number {
    return this.mirror.records().length;
  }

  /** Entries by tenant (read copy). */
  get tenantCounts(): Readonly<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const entry of this.mirror.values()) counts[entry.tenantId] = (counts[entry.tenantId] ?? 0) + 1;
    return counts;
  }

  /** Entries under a live claim (of any replica) now, in the read copy. */
  get claimedCount(): number {
    const now = this.now().toISOString();
    return this.mirror.values().filter((entry) => leaseHeld(entry, now)).length;
  }

  /** Reads the whole queue into the copy (a shared queue's copy otherwise follows the change feed). */
  refresh(): Promise<void> {
    return this.mirror.load();
  }

  private remember(key: string, record: StoredRecord<RetryQueueEntry> | null | undefined): void {
    if (record) this.mirror.remember(record);
    else if (this.mirror.record(key)) this.mirror.forget(key);
  }

  /** Deletes the key (at `expectedVersion` when given) and drops it from the copy; answers whether it was deleted. */
  private async remove(key: string, expectedVersion?: number): Promise<boolean> {
    const deleted = await this.store.delete(
      key,
      expectedVersion === undefined ? undefined : { expectedVersion },
    );
    if (deleted) this.mirror.forget(key);
    return deleted;
  }

  /** Writes the entry (compare-and-set with `expectedVersion`) and puts the written record in the copy. */
  private async write(key: string, entry: RetryQueueEntry, expectedVersion?: number) {
    const result = await this.store.put(
      key,
      entry,
      expectedVersion === undefined ? undefined : { expectedVersion },
    );
    this.remember(key, result.written ? result.record : result.current);
    return result;
  }

  get(key: string) {
    return this.store.get(key);
  }

  /**
   * Entries due now (nextAttemptAtUtc reached) and not under a live claim, oldest due first, at most `limit`.
   */
  async due(limit: number): Promise<DueRetry[]> {
    const now = this.now().toISOString();
    return (await this.store.list())
      .filter((record) => record.value.nextAttemptAtUtc <= now && !leaseHeld(record.value, now))
      .sort((a, b) => (a.value.nextAttemptAtUtc < b.value.nextAttemptAtUtc ? -1 : 1))
      .slice(0, limit)
      .map((record) => ({ key: record.key, entry: record.value, version: record.version }));
  }

  /**
   * Claims a due entry for this process for `InvitationDeliveryRetryLeaseSeconds` (compare-and-set on the
   * version `due` read). An entry whose owner's lease ended is `taken-over`: the interrupted attempt counts
   * (it may have reached the provider), and when that spends the budget the entry is dropped (`exhausted`).
   * `lost`: another replica claimed or changed it first. On a store that is not shared, always `claimed`
   * (nothing is written).
   */
  async claim(due: DueRetry): Promise<RetryClaim> {
    if (!this.shared()) return 'claimed';
    const takeover = typeof due.entry.owner === 'string';
    const attempts = due.entry.attempts + (takeover ? 1 : 0);
    if (attempts >= this.settings.InvitationDeliveryRetryMaxAttempts) {
      if (!(await this.remove(due.key, due.version))) return this.lost();
      this.counts.exhaustedTotal++;
      this.counts.latestOutcome = 'exhausted';
      return 'exhausted';
    }
    const lease = this.now().getTime() + this.settings.InvitationDeliveryRetryLeaseSeconds * 1000;
    const entry = {
      ...due.entry,
      attempts,
      owner: this.ownerId,
      leaseExpiresAtUtc: new Date(lease).toISOString(),
    };
    const result = await this.write(due.key, entry, due.version);
    if (!result.written) return this.lost();
    this.holding.set(due.key, { entry, version: result.record.version });
    this.counts.claimedTotal++;
    if (takeover) this.counts.takenOverTotal++;
    return takeover ? 'taken-over' : 'claimed';
  }

  /**
   * Keeps this process's claim on `key` renewed while its retry is in flight (every
   * `InvitationDeliveryRetryLeaseRenewMilliseconds`, default a third of the lease; a compare-and-set on the
   * version the claim or the previous renewal wrote), so a send slower than the lease is not taken over. A
   * renewal refused (another replica changed the entry) or failing until the lease ran out (store unavailable)
   * loses the claim: the signal aborts, `held()` turns false, and the caller records no outcome. On a store that
   * is not shared nothing is claimed and the claim always holds.
   */
  keepClaim(key: string): RetryClaimRenewal {
    const claimed = this.holding.get(key);
    if (!this.shared() || !claimed) return unclaimed;
    const leaseMs = this.settings.InvitationDeliveryRetryLeaseSeconds * 1000;
    const renewal = keepLeaseRenewed({
      expiresAtMs: Date.parse(claimed.entry.leaseExpiresAtUtc ?? '') || 0,
      renewEveryMs: this.settings.InvitationDeliveryRetryLeaseRenewMilliseconds ?? Math.floor(leaseMs / 3),
      now: () => this.now().getTime(),
      renew: () => this.renewClaim(key, leaseMs),
    });
    return {
      signal: renewal.signal,
      held: () => renewal.held(),
      get lostReason() {
        return renewal.lostReason;
      },
      stop: async () => {
        await renewal.stop();
        this.holding.delete(key);
      },
    };
  }

  /** Counts a retry whose claim was lost while its send was in flight. */
  countLostDuringSend(): void {
    this.counts.claimLostDuringSendTotal++;
    this.counts.latestOutcome = 'claim-lost';
  }

  private async renewClaim(key: string, leaseMs: number): Promise<number | null> {
    const claimed = this.holding.get(key);
    if (!claimed) return null;
    const expiresAtMs = this.now().getTime() + leaseMs;
    const entry = { ...claimed.entry, leaseExpiresAtUtc: new Date(expiresAtMs).toISOString() };
    const result = await this.write(key, entry, claimed.version);
    if (!result.written) {
      this.holding.delete(key);
      return null;
    }
    this.holding.set(key, { entry, version: result.record.version });
    return expiresAtMs;
  }

  /** Gives back this process's claim without an outcome (a transient failure): the entry waits again. */
  async release(key: string): Promise<void> {
    if (!this.shared()) return;
    const current = await this.store.get(key);
    if (!current || current.value.owner !== this.ownerId) return;
    await this.write(key, { ...current.value, owner: null, leaseExpiresAtUtc: null }, current.version);
  }

  private lost(): RetryClaim {
    this.counts.claimLostTotal++;
    return 'lost';
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
      if (current) await this.remove(key);
      const decision = retryable ? 'exhausted' : 'not-retryable';
      if (retryable) this.counts.exhaustedTotal++;
      this.counts.latestOutcome = decision;
      return decision;
    }
    if (!current && (await this.store.count()) >= this.settings.InvitationDeliveryRetryMaxItems) {
      this.counts.fullTotal++;
      this.counts.latestOutcome = 'queue-full';
      return 'queue-full';
    }
    const now = this.now();
    const next = new Date(now.getTime() + this.settings.InvitationDeliveryRetryDelaySeconds * 1000);
    await this.write(key, {
      ...entry,
      attempts: attempt,
      firstQueuedAtUtc: current?.value.firstQueuedAtUtc ?? now.toISOString(),
      nextAttemptAtUtc: next.toISOString(),
    });
    if (!current) this.counts.queuedTotal++;
    this.counts.latestOutcome = 'queued';
    return 'queued';
  }

  /** Removes the key after a dispatched or suppressed attempt; answers whether an entry was there. */
  async complete(key: string): Promise<boolean> {
    if (!(await this.remove(key))) return false;
    this.counts.completedTotal++;
    this.counts.latestOutcome = 'completed';
    return true;
  }

  /** Drops an entry whose invitation is gone or no longer deliverable. */
  async abandon(key: string): Promise<void> {
    if (await this.remove(key)) {
      this.counts.abandonedTotal++;
      this.counts.latestOutcome = 'abandoned';
    }
  }
}

/** The claim of a store that is not shared: nothing written, never lost. */
const unclaimed: RetryClaimRenewal = {
  signal: new AbortController().signal,
  held: () => true,
  lostReason: null,
  stop: async () => undefined,
};

/** True while an entry is claimed and its lease has not ended (`now` an ISO time). */
function leaseHeld(entry: RetryQueueEntry, now: string): boolean {
  return typeof entry.owner === 'string' && (entry.leaseExpiresAtUtc ?? '') > now;
}
