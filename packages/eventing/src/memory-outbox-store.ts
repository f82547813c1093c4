import { CoreError, storeErrorCodes } from '@corekit/abstractions';
import type { EventMessage } from './eventing-model';
import type { ClaimedOutboxMessage, OutboxStore } from './outbox-store';

/** A pending message of the memory outbox: claimable, claimed or waiting for its retry. */
interface Slot {
  readonly message: EventMessage;
  /** Where the slot stands in the claim queue (absolute position); an older position is stale. */
  position: number;
  /** False once dispatched or terminally failed. */
  pending: boolean;
  attempts: number;
  availableAtMs: number;
  owner: string | null;
  leaseUntilMs: number;
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
  /** Pending messages by id. */
  private readonly pending = new Map<string, Slot>();
  /**
   * The claim order: pending slots, oldest first, with settled and stale entries left behind until the
   * front moves past them (claims start at `head`; a retry appends the slot again at the end).
   */
  private queue: Slot[] = [];
  private head = 0;
  /** Absolute position of `queue[0]` (the queue drops its settled front now and then). */
  private base = 0;
  /**
   * Ids of terminally failed messages: they count toward the bound and staging them again is refused, as in
   * the durable outboxes (the failure itself is on `/engine/event-dispatches/terminal-failures`).
   */
  private readonly failed = new Set<string>();
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
    const slot: Slot = {
      message,
      position: 0,
      pending: true,
      attempts: 0,
      availableAtMs: 0,
      owner: null,
      leaseUntilMs: 0,
    };
    this.pending.set(id, slot);
    this.enqueue(slot);
    return true;
  }

  async claim(owner: string, limit: number, leaseMs: number): Promise<ClaimedOutboxMessage[]> {
    const claimed: ClaimedOutboxMessage[] = [];
    if (limit <= 0) return claimed;
    const now = this.now();
    this.dropSettledFront();
    for (let index = this.head; index < this.queue.length; index += 1) {
      const slot = this.queue[index]!;
      if (!this.current(slot, index)) continue;
      if (slot.availableAtMs > now || (slot.owner !== null && slot.leaseUntilMs > now)) continue;
      slot.attempts += 1;
      slot.owner = owner;
      slot.leaseUntilMs = now + leaseMs;
      claimed.push({ id: slot.message.publicationId, message: slot.message, attempt: slot.attempts });
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

  /** The error is on the dispatch state and in the log (as for `fail`): this outbox keeps no copy. */
  async extend(ids: readonly string[], owner: string, leaseMs: number): Promise<readonly string[]> {
    const leaseUntilMs = this.now() + leaseMs;
    return ids.filter((id) => {
      const slot = this.held(id, owner);
      if (slot) slot.leaseUntilMs = leaseUntilMs;
      return slot !== undefined;
    });
  }

  async retry(id: string, owner: string, availableAt: Date, _error: string): Promise<boolean> {
    const slot = this.held(id, owner);
    if (!slot) return false;
    slot.owner = null;
    slot.leaseUntilMs = 0;
    slot.availableAtMs = availableAt.getTime();
    // Behind the others: claims walk from the front, where the oldest claimable messages wait.
    this.enqueue(slot);
    return true;
  }

  async release(id: string, owner: string): Promise<boolean> {
    const slot = this.held(id, owner);
    if (!slot) return false;
    // The slot keeps its place in the queue: it is the oldest claimable message again.
    slot.owner = null;
    slot.leaseUntilMs = 0;
    slot.attempts = Math.max(0, slot.attempts - 1);
    return true;
  }

  async fail(id: string, owner: string, _error: string): Promise<boolean> {
    const slot = this.held(id, owner);
    if (!slot) return false;
    this.pending.delete(id);
    slot.pending = false;
    this.failed.add(id);
    return true;
  }

  async pendingCount(): Promise<number> {
    return this.pending.size;
  }

  private completeOne(id: string, owner: string, now: number): boolean {
    const slot = this.held(id, owner);
    if (!slot) return false;
    slot.pending = false;
    this.pending.delete(id);
    this.dispatched.set(id, now);
    if (this.dispatched.size > this.options.maxMessages) this.forgetDispatched(now);
    return true;
  }

  private enqueue(slot: Slot): void {
    slot.position = this.base + this.queue.length;
    this.queue.push(slot);
  }

  /** True when `queue[index]` is where its slot stands now and the slot is still pending. */
  private current(slot: Slot, index: number): boolean {
    return slot.pending && slot.position === this.base + index;
  }

  /** Moves `head` past settled and stale entries, and drops them from the array once they are most of it. */
  private dropSettledFront(): void {
    while (this.head < this.queue.length && !this.current(this.queue[this.head]!, this.head)) {
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.base += this.head;
      this.head = 0;
    }
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
