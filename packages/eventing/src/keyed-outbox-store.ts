import type { KeyedStore } from '@corekit/abstractions';
import type { EventMessage } from './eventing-model';
import type { ClaimedOutboxMessage, OutboxStore } from './outbox-store';

/** One outbox record in the engine's keyed store. */
export interface OutboxRecord {
  readonly message: EventMessage;
  readonly status: 'pending' | 'dispatched' | 'failed';
  /** Attempts made so far. */
  readonly attempts: number;
  readonly availableAtMs: number;
  readonly claimOwner: string | null;
  readonly claimExpiresAtMs: number;
  readonly lastError: string | null;
  readonly stagedAtUtc: string;
}

/**
 * The embedded outbox on the engine's keyed store (memory by default, files when `Engine:Stores:Provider` is
 * File). Claims are compare-and-set writes, so two dispatchers sharing the store never hold one message.
 * Dispatched records are kept for `retainDispatchedMs` then dropped by the store's TTL.
 */
export class KeyedOutboxStore implements OutboxStore {
  readonly provider = 'engine-store';

  constructor(
    private readonly store: KeyedStore<OutboxRecord>,
    private readonly retainDispatchedMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async stage(message: EventMessage): Promise<boolean> {
    const record: OutboxRecord = {
      message,
      status: 'pending',
      attempts: 0,
      availableAtMs: 0,
      claimOwner: null,
      claimExpiresAtMs: 0,
      lastError: null,
      stagedAtUtc: new Date(this.now()).toISOString(),
    };
    const result = await this.store.put(message.publicationId, record, { expectedVersion: 0 });
    return result.written;
  }

  async claim(owner: string, limit: number, leaseMs: number): Promise<ClaimedOutboxMessage[]> {
    const now = this.now();
    const claimed: ClaimedOutboxMessage[] = [];
    const candidates = (await this.store.list())
      .filter(
        ({ value }) =>
          value.status === 'pending' &&
          value.availableAtMs <= now &&
          (value.claimOwner === null || value.claimExpiresAtMs <= now),
      )
      .sort((a, b) => a.value.stagedAtUtc.localeCompare(b.value.stagedAtUtc));
    for (const candidate of candidates) {
      if (claimed.length >= limit) break;
      const attempts = candidate.value.attempts + 1;
      const result = await this.store.put(
        candidate.key,
        { ...candidate.value, attempts, claimOwner: owner, claimExpiresAtMs: now + leaseMs },
        { expectedVersion: candidate.version },
      );
      if (result.written)
        claimed.push({ id: candidate.key, message: candidate.value.message, attempt: attempts });
    }
    return claimed;
  }

  complete(id: string, owner: string): Promise<boolean> {
    return this.settle(id, owner, (record) => ({ ...record, status: 'dispatched', claimOwner: null }), {
      ttlMs: this.retainDispatchedMs,
    });
  }

  retry(id: string, owner: string, availableAt: Date, error: string): Promise<boolean> {
    return this.settle(id, owner, (record) => ({
      ...record,
      availableAtMs: availableAt.getTime(),
      claimOwner: null,
      claimExpiresAtMs: 0,
      lastError: error,
    }));
  }

  fail(id: string, owner: string, error: string): Promise<boolean> {
    return this.settle(id, owner, (record) => ({
      ...record,
      status: 'failed',
      claimOwner: null,
      lastError: error,
    }));
  }

  async pendingCount(): Promise<number> {
    return (await this.store.list()).filter(({ value }) => value.status === 'pending').length;
  }

  private async settle(
    id: string,
    owner: string,
    change: (record: OutboxRecord) => OutboxRecord,
    options: { ttlMs?: number } = {},
  ): Promise<boolean> {
    const current = await this.store.get(id);
    if (!current || current.value.claimOwner !== owner || current.value.status !== 'pending') return false;
    const result = await this.store.put(id, change(current.value), {
      ...options,
      expectedVersion: current.version,
    });
    return result.written;
  }
}
