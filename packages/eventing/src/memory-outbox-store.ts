import { CoreError, storeErrorCodes } from '@corekit/abstractions';
import type { EventMessage } from './eventing-model';
import type { ClaimedOutboxMessage, OutboxStore } from './outbox-store';

/** A message in the memory outbox: pending (claimable, claimed or retry-pending) or terminally failed. */
interface Slot {
  readonly message: EventMessage;
  attempts: number;
  availableAtMs: number;
  owner: string | null;
  leaseUntilMs: number;
  lastError: string | null;
}

/** Options of the memory outbox. */
export interface MemoryOutboxOptions {
  /** Most messages held, pending and terminally failed together; staging beyond it fails with STORE_FULL. */
  readonly maxMessages: number;
  /** How long a dispatched publication id is remembered, so staging it again is a no-op. Default 10 minutes. */
  readonly retainDispatchedMs?: number;
  readonly now?: () => number;
}

/**
 * The embedded outbox when the engine's stores are neither durable nor shared (the default Memory provider):
 * staged messages live in this process, like every memory store, and are lost with it. Built for that case
 * rather than on the keyed store: a claim takes the oldest claimable messages from an insertion-ordered map
 * and a settlement is one map operation, so the outbox adds next to nothing to a dispatch. Claims keep the
 * OutboxStore guarantees inside the process: one owner per message until its lease expires, only the owner
 * settles, an expired claim is claimable again. A message scheduled for retry moves behind the others.
 * Publication ids dispatched within `retainDispatchedMs` (at most `maxMessages` of them) are remembered so a
 * publication staged twice is sent once.
 */
export class MemoryOutboxStore implements OutboxStore {
  readonly provider = 'memory';
  /** Pending messages by id, oldest first (a retry re-inserts at the end). */
  private readonly pending = new Map<string, Slot>();
  /** Terminally failed messages, kept for inspection within the bound. */
  private readonly failed = new Map<string, Slot>();
  /** Ids dispatched recently, with the time, oldest first. */
  private readonly dispatched = new Map<string, number>();
  private readonly retainDispatchedMs: number;
  private readonly now: () => number;

  constructor(private readonly options: MemoryOutboxOptions) {
    this.retainDispatchedMs = options.retainDispatchedMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
  }

  async stage(message: EventMessage): Promise<boolean> {
    const id = message.publicationId;
    this.forgetDispatched(this.now());
    if (this.pending.has(id) || this.failed.has(id) || this.dispatched.has(id)) return false;
    if (this.pending.size + this.failed.size >= this.options.maxMessages) {
      throw new CoreError(
        storeErrorCodes.full,
        `The memory outbox holds ${this.pending.size} pending and ${this.failed.size} failed messages, its bound of ${this.options.maxMessages}.`,
        { store: 'eventing-outbox', maxEntries: this.options.maxMessages },
      );
    }
    this.pending.set(id, {
      message,
      attempts: 0,
      availableAtMs: 0,
      owner: null,
      leaseUntilMs: 0,
      lastError: null,
    });
    return true;
  }

  async claim(owner: string, limit: number, leaseMs: number): Promise<ClaimedOutboxMessage[]> {
    const claimed: ClaimedOutboxMessage[] = [];
    if (limit <= 0) return claimed;
    const now = this.now();
    for (const [id, slot] of this.pending) {
      if (slot.availableAtMs > now || (slot.owner !== null && slot.leaseUntilMs > now)) continue;
      slot.attempts += 1;
      slot.owner = owner;
      slot.leaseUntilMs = now + leaseMs;
      claimed.push({ id, message: slot.message, attempt: slot.attempts });
      if (claimed.length >= limit) break;
    }
    return claimed;
  }

  async complete(id: string, owner: string): Promise<boolean> {
    return this.completeOne(id, owner, this.now());
  }

  async completeMany(ids: readonly string[], owner: string): Promise<readonly string[]> {
    const now = this.now();
    return ids.filter((id) => this.completeOne(id, owner, now));
  }

  async retry(id: string, owner: string, availableAt: Date, error: string): Promise<boolean> {
    const slot = this.held(id, owner);
    if (!slot) return false;
    slot.owner = null;
    slot.leaseUntilMs = 0;
    slot.availableAtMs = availableAt.getTime();
    slot.lastError = error;
    // Behind the others: claims walk from the front, where the oldest claimable messages wait.
    this.pending.delete(id);
    this.pending.set(id, slot);
    return true;
  }

  async fail(id: string, owner: string, error: string): Promise<boolean> {
    const slot = this.held(id, owner);
    if (!slot) return false;
    this.pending.delete(id);
    slot.owner = null;
    slot.lastError = error;
    this.failed.set(id, slot);
    return true;
  }

  async pendingCount(): Promise<number> {
    return this.pending.size;
  }

  private completeOne(id: string, owner: string, now: number): boolean {
    if (!this.held(id, owner)) return false;
    this.pending.delete(id);
    this.dispatched.set(id, now);
    this.forgetDispatched(now);
    return true;
  }

  /** The slot when `owner` holds its claim (a lapsed claim nobody took over still counts, as in every store). */
  private held(id: string, owner: string): Slot | undefined {
    const slot = this.pending.get(id);
    return slot?.owner === owner ? slot : undefined;
  }

  /** Drops remembered ids older than the retention, and the oldest beyond `maxMessages`. */
  private forgetDispatched(now: number): void {
    for (const [id, at] of this.dispatched) {
      if (now - at < this.retainDispatchedMs && this.dispatched.size <= this.options.maxMessages) break;
      this.dispatched.delete(id);
    }
  }
}
