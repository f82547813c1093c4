import { leaseIsLive, type KeyedStore, type WorkLease } from '@corekit/abstractions';
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

/** The claim of a due record as a work lease (none while unclaimed). */
const claimOf = (due: OutboxDueRecord): WorkLease | null =>
  due.claimOwner === null ? null : { owner: due.claimOwner, expiresAtMs: due.claimExpiresAtMs };

/** Where the publication id starts in a due key: `due:` and a 21-digit order, then `:`. */
const dueIdOffset = 26;

/** A claimed message as its claim left it: the message record and the due record at its version. */
interface Held {
  readonly message: OutboxMessageRecord;
  readonly due: { readonly key: string; readonly version: number; readonly value: OutboxDueRecord };
}

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
  /**
   * What this instance read when it claimed a message, until it settles it: settling then needs no reads,
   * because the compare-and-set delete of the due record (at the version the claim wrote) fails if anyone
   * touched the claim since, and only a claim holder writes the message record. A cache: a miss reads the store.
   */
  private readonly claims = new Map<string, Held>();
  /** Records at the front of the due list the last claim had to skip (claims still in flight). */
  private frontSkipped = 0;

  constructor(
    private readonly store: KeyedStore<OutboxRecord>,
    private readonly retainDispatchedMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async stage(message: EventMessage): Promise<boolean> {
    const stagedAt = this.now();
    const order = `${stagedAt.toString().padStart(15, '0')}${(this.sequence++ % 1e6).toString().padStart(6, '0')}`;
    const dueKey = `due:${order}:${message.publicationId}`; // the id starts at dueIdOffset
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

  /**
   * Claims from the oldest due records, listing a window of them rather than every pending one (records of
   * batches still in flight sit at the front); the window widens only when it held too few claimable ones.
   */
  async claim(owner: string, limit: number, leaseMs: number): Promise<ClaimedOutboxMessage[]> {
    const claimed: ClaimedOutboxMessage[] = [];
    if (limit <= 0) return claimed;
    if (this.claims.size > 100_000) this.claims.clear();
    let skipped = 0;
    for (let window = limit + this.frontSkipped + 16; ; window *= 4) {
      const now = this.now();
      const candidates = await this.store.list({ prefix: 'due:', limit: window });
      skipped = 0;
      for (const candidate of candidates) {
        if (claimed.length >= limit) break;
        // A live claim of this instance, unchanged since: skipped without reading (copying) the record.
        const mine = this.claims.get(candidate.key.slice(dueIdOffset));
        if (
          mine?.due.key === candidate.key &&
          mine.due.version === candidate.version &&
          mine.due.value.claimExpiresAtMs > now
        ) {
          skipped += 1;
          continue;
        }
        const due = candidate.value as OutboxDueRecord;
        if (due.availableAtMs > now || leaseIsLive(claimOf(due), now)) {
          skipped += 1;
          continue;
        }
        const attempts = due.attempts + 1;
        const claimedDue: OutboxDueRecord = {
          ...due,
          attempts,
          claimOwner: owner,
          claimExpiresAtMs: now + leaseMs,
        };
        const result = await this.store.put(candidate.key, claimedDue, {
          expectedVersion: candidate.version,
        });
        if (!result.written) continue;
        const record = (await this.store.get(`message:${due.id}`))?.value as OutboxMessageRecord | undefined;
        if (!record) {
          await this.store.delete(candidate.key);
          continue;
        }
        this.claims.set(due.id, {
          message: record,
          due: { key: candidate.key, version: result.record.version, value: claimedDue },
        });
        claimed.push({ id: due.id, message: record.message, attempt: attempts });
      }
      // Fewer records than the window: every due record was seen.
      if (claimed.length >= limit || candidates.length < window) break;
    }
    this.frontSkipped = Math.min(skipped, 10_000);
    return claimed;
  }

  complete(id: string, owner: string): Promise<boolean> {
    return this.settle(id, owner, 'dispatched', null);
  }

  async completeMany(ids: readonly string[], owner: string): Promise<readonly string[]> {
    const settled = await Promise.all(ids.map((id) => this.settle(id, owner, 'dispatched', null)));
    return ids.filter((_, index) => settled[index]);
  }

  async extend(ids: readonly string[], owner: string, leaseMs: number): Promise<readonly string[]> {
    const claimExpiresAtMs = this.now() + leaseMs;
    const kept: string[] = [];
    for (const id of ids) {
      const held = this.claims.get(id) ?? (await this.read(id, owner));
      if (!held || held.due.value.claimOwner !== owner) continue;
      const value = { ...held.due.value, claimExpiresAtMs };
      const result = await this.store.put(held.due.key, value, { expectedVersion: held.due.version });
      if (!result.written) {
        this.claims.delete(id);
        continue;
      }
      this.claims.set(id, {
        message: held.message,
        due: { key: held.due.key, version: result.record.version, value },
      });
      kept.push(id);
    }
    return kept;
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

  async release(id: string, owner: string): Promise<boolean> {
    const held = await this.held(id, owner);
    if (!held) return false;
    const result = await this.store.put(
      held.due.key,
      {
        ...held.due.value,
        attempts: Math.max(0, held.due.value.attempts - 1),
        claimOwner: null,
        claimExpiresAtMs: 0,
      },
      { expectedVersion: held.due.version },
    );
    return result.written;
  }

  fail(id: string, owner: string, error: string): Promise<boolean> {
    return this.settle(id, owner, 'failed', error);
  }

  async pendingCount(): Promise<number> {
    return (await this.store.list({ prefix: 'due:' })).length;
  }

  private async held(id: string, owner: string): Promise<Held | null> {
    const cached = this.claims.get(id);
    if (cached) {
      this.claims.delete(id);
      if (cached.due.value.claimOwner === owner) return cached;
    }
    return this.read(id, owner);
  }

  /** The claim `owner` holds on `id`, read from the store (not the cache); null when it is not held. */
  private async read(id: string, owner: string): Promise<Held | null> {
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
