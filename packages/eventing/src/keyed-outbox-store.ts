import type { KeyedStore } from '@corekit/abstractions';
import type { EventMessage } from './eventing-model';
import type { ClaimedOutboxMessage, OutboxStore } from './outbox-store';

/** A staged message (`message:<publicationId>`); written once, then marked dispatched or failed. */
export interface OutboxMessageRecord {
  readonly kind: 'message';
  readonly message: EventMessage;
  readonly status: 'pending' | 'dispatched' | 'failed';
  readonly dueKey: string;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly stagedAtUtc: string;
}

/**
 * The claim state of a pending message (`due:<staged time>:<publicationId>`), small so a dispatch pass can
 * list every pending message cheaply. It exists exactly while the message is pending; claims are
 * compare-and-set writes on it.
 */
export interface OutboxDueRecord {
  readonly kind: 'due';
  readonly id: string;
  readonly attempts: number;
  readonly availableAtMs: number;
  readonly claimOwner: string | null;
  readonly claimExpiresAtMs: number;
}

export type OutboxRecord = OutboxMessageRecord | OutboxDueRecord;

/**
 * The embedded outbox on the engine's keyed store (memory by default, files when `Engine:Stores:Provider` is
 * File). Claims are compare-and-set writes on the due record, so dispatchers sharing the store never hold
 * one message at once. Dispatched messages are kept for `retainDispatchedMs` (store TTL); failed ones stay.
 * With the file store, a crash between writing a message and its due record leaves the message staged but
 * never dispatched; PostgreSQL (`@corekit/outbox-postgres`) has no such window.
 */
export class KeyedOutboxStore implements OutboxStore {
  readonly provider = 'engine-store';
  private sequence = 0;

  constructor(
    private readonly store: KeyedStore<OutboxRecord>,
    private readonly retainDispatchedMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async stage(message: EventMessage): Promise<boolean> {
    const stagedAt = this.now();
    const order = `${stagedAt.toString().padStart(15, '0')}${(this.sequence++ % 1e6).toString().padStart(6, '0')}`;
    const dueKey = `due:${order}:${message.publicationId}`;
    const written = await this.store.put(
      `message:${message.publicationId}`,
      {
        kind: 'message',
        message,
        status: 'pending',
        dueKey,
        attempts: 0,
        lastError: null,
        stagedAtUtc: new Date(stagedAt).toISOString(),
      },
      { expectedVersion: 0 },
    );
    if (!written.written) return false;
    const due: OutboxDueRecord = {
      kind: 'due',
      id: message.publicationId,
      attempts: 0,
      availableAtMs: 0,
      claimOwner: null,
      claimExpiresAtMs: 0,
    };
    await this.store.put(dueKey, due, { expectedVersion: 0 });
    return true;
  }

  async claim(owner: string, limit: number, leaseMs: number): Promise<ClaimedOutboxMessage[]> {
    const now = this.now();
    const claimed: ClaimedOutboxMessage[] = [];
    for (const candidate of await this.store.list({ prefix: 'due:' })) {
      if (claimed.length >= limit) break;
      const due = candidate.value as OutboxDueRecord;
      if (due.availableAtMs > now || (due.claimOwner !== null && due.claimExpiresAtMs > now)) continue;
      const attempts = due.attempts + 1;
      const result = await this.store.put(
        candidate.key,
        { ...due, attempts, claimOwner: owner, claimExpiresAtMs: now + leaseMs },
        { expectedVersion: candidate.version },
      );
      if (!result.written) continue;
      const record = (await this.store.get(`message:${due.id}`))?.value as OutboxMessageRecord | undefined;
      if (!record) {
        await this.store.delete(candidate.key);
        continue;
      }
      claimed.push({ id: due.id, message: record.message, attempt: attempts });
    }
    return claimed;
  }

  complete(id: string, owner: string): Promise<boolean> {
    return this.settle(id, owner, 'dispatched', null);
  }

  async retry(id: string, owner: string, availableAt: Date, error: string): Promise<boolean> {
    const held = await this.held(id, owner);
    if (!held) return false;
    const result = await this.store.put(
      held.due.key,
      { ...held.due.value, availableAtMs: availableAt.getTime(), claimOwner: null, claimExpiresAtMs: 0 },
      { expectedVersion: held.due.version },
    );
    if (result.written) await this.store.put(`message:${id}`, { ...held.message, lastError: error });
    return result.written;
  }

  fail(id: string, owner: string, error: string): Promise<boolean> {
    return this.settle(id, owner, 'failed', error);
  }

  async pendingCount(): Promise<number> {
    return (await this.store.list({ prefix: 'due:' })).length;
  }

  private async held(id: string, owner: string) {
    const message = (await this.store.get(`message:${id}`))?.value as OutboxMessageRecord | undefined;
    if (!message || message.status !== 'pending') return null;
    const due = await this.store.get(message.dueKey);
    const value = due?.value as OutboxDueRecord | undefined;
    if (!due || !value || value.claimOwner !== owner) return null;
    return { message, due: { key: due.key, version: due.version, value } };
  }

  private async settle(id: string, owner: string, status: 'dispatched' | 'failed', error: string | null) {
    const held = await this.held(id, owner);
    if (!held) return false;
    if (!(await this.store.delete(held.due.key, { expectedVersion: held.due.version }))) return false;
    await this.store.put(
      `message:${id}`,
      {
        ...held.message,
        status,
        attempts: held.due.value.attempts,
        lastError: error ?? held.message.lastError,
      },
      status === 'dispatched' ? { ttlMs: this.retainDispatchedMs } : {},
    );
    return true;
  }
}
