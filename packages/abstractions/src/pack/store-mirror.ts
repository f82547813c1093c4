import type { StoreChange, StoreChangeSubscription } from './store-change-feed';
import {
  ExpirySchedule,
  PropagationWindow,
  type StoreMirrorFreshness,
  type StorePropagation,
} from './store-mirror-feed';
import type { KeyedStore, StoredRecord } from './stores';

export type { StoreMirrorFreshness, StorePropagation } from './store-mirror-feed';
export { sharedStateFreshness, type SharedStateFreshnessMetadata } from './store-mirror-feed';

/** Options of a {@link StoreMirror}. */
export interface StoreMirrorOptions {
  /**
   * Milliseconds between two reads of the whole store when the store is shared and its provider has no change
   * feed (or the feed is switched off, or has lost its connection): what another replica wrote is then in this
   * copy at most this long plus one store round trip after it was written. With a connected feed the copy
   * follows each change instead, and reads the whole store only on the feed's safety-net interval.
   */
  readonly refreshMs: number;
  /** Told about a refresh that failed (the copy is kept as it was; the next refresh tries again). */
  readonly onRefreshFailure?: (error: unknown) => void;
  /** Follow the store's change feed when its provider has one. Default true. */
  readonly useChangeFeed?: boolean;
  /** Epoch milliseconds now; tests pass a manual clock. Default `Date.now`. */
  readonly now?: () => number;
}

/** A key being read again because the feed announced a change of it. */
interface KeyRead {
  /** Another change arrived while reading: read once more afterwards. */
  again: boolean;
  /** The owner remembered or forgot the key while reading: the owner's knowledge wins. */
  touched: boolean;
  /** The version the feed announced (the write whose delay is measured); null for a deletion or expiry. */
  announced: number | null;
}

/**
 * A synchronous read copy of a keyed store, for catalog, view and snapshot reads (which are synchronous).
 * The store stays the truth: the owner remembers every record it writes (`remember`, so its own writes are
 * read at once). When the store is shared by replicas (`start(true)`) and its provider has a change feed, the
 * mirror reads each announced key again (only that key; a change never rolls the copy back to an older
 * version, and a write the owner remembered stays), reads the whole store after every (re)connection of the
 * feed (the catch-up of what was missed) and, as a safety net, on the feed's long interval; without a feed,
 * or while it is down, it reads the whole store every `refreshMs`. `freshness()` says which, and the bound.
 * Without a shared store the copy is only refreshed by `load()` (every writer is in this process).
 */
export class StoreMirror<T> {
  private copy = new Map<string, StoredRecord<T>>();
  /** Keys written (by the owner or the feed) while a full read was reading: the read must not undo them. */
  private writtenDuringRefresh: Map<string, StoredRecord<T> | null> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private timerMs: number | null = null;
  private refreshing: Promise<void> | null = null;
  private refreshedAtMs: number | null = null;
  private subscription: StoreChangeSubscription | null = null;
  private shared = false;
  private readonly keyReads = new Map<string, KeyRead>();
  /** Keys announced deleted: the next read of the key takes what the store holds whatever its version. */
  private readonly deletedSinceRead = new Set<string>();
  private readonly expiries: ExpirySchedule;
  private propagation = new PropagationWindow();
  private catchUps = 0;
  private readonly now: () => number;

  constructor(
    private readonly store: KeyedStore<T>,
    private readonly options: StoreMirrorOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.expiries = new ExpirySchedule((keys) => keys.forEach((key) => this.readKey(key)), this.now);
  }

  /** Epoch milliseconds of the last completed read of the whole store; null before the first. */
  get lastRefreshMs(): number | null {
    return this.refreshedAtMs;
  }

  /** True while the mirror re-reads the store on an interval (polling, or the feed's safety net). */
  get refreshesOnInterval(): boolean {
    return this.timer !== null;
  }

  /** True while the store's change feed is connected (the copy follows each change). */
  get feedConnected(): boolean {
    return this.subscription?.state().connected ?? false;
  }

  /** Reads the whole store into the copy now (one at a time: a call during a read waits for that read). */
  load(): Promise<void> {
    this.refreshing ??= this.read().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * Loads the copy and (with `refresh: true`, for a shared store) keeps it following the store until `stop()`:
   * by the change feed when the provider has one, else by a whole read every `refreshMs`; also when this first
   * load fails. The timers do not keep the process alive.
   */
  async start(refresh: boolean): Promise<void> {
    this.stop();
    this.shared = refresh;
    if (refresh && !(this.options.useChangeFeed !== false && this.subscribe())) {
      this.every(this.options.refreshMs);
    }
    await this.load();
  }

  /** Stops following the store (the copy is kept). */
  stop(): void {
    this.every(null);
    this.subscription?.close();
    this.subscription = null;
    this.expiries.stop();
  }

  /** How this copy follows the store and the staleness bound it can promise now. */
  freshness(): StoreMirrorFreshness {
    const feed = this.subscription?.state() ?? null;
    const lastFullReadAtUtc = this.refreshedAtMs === null ? null : new Date(this.refreshedAtMs).toISOString();
    const common = { feed, lastFullReadAtUtc, catchUpReads: this.catchUps };
    const fullReadIntervalMs = this.subscription?.fullReadIntervalMs ?? null;
    const propagation: StorePropagation = !this.shared
      ? 'local'
      : !feed
        ? 'interval'
        : feed.connected
          ? 'change-feed'
          : 'change-feed-down';
    if (propagation === 'local') {
      return { ...common, propagation, fullReadIntervalMs, stalenessBoundMs: null, basis: 'not shared' };
    }
    if (propagation === 'change-feed') {
      const measured = this.propagation.max();
      return {
        ...common,
        propagation,
        fullReadIntervalMs,
        stalenessBoundMs: Math.max(1, measured ?? Math.ceil(2 * feed!.roundTripMs)),
        basis:
          measured === null
            ? `${feed!.path}: no change measured yet; two round trips of the subscribe command`
            : `${feed!.path}: the longest delay measured over the last ${this.propagation.count} changes`,
      };
    }
    return {
      ...common,
      propagation,
      fullReadIntervalMs,
      stalenessBoundMs: this.options.refreshMs,
      basis:
        propagation === 'interval'
          ? 'no change feed: the whole store is read every refresh interval'
          : `${feed!.path} is down${feed!.lastError ? ` (${feed!.lastError})` : ''}: the whole store is read every refresh interval until it is back`,
    };
  }

  get(key: string): T | undefined {
    return this.copy.get(key)?.value;
  }

  record(key: string): StoredRecord<T> | undefined {
    return this.copy.get(key);
  }

  values(): T[] {
    return [...this.copy.values()].map((record) => record.value);
  }

  records(): StoredRecord<T>[] {
    return [...this.copy.values()];
  }

  /** Takes a record this process just wrote or read (a newer version than the copy's wins). */
  remember(record: StoredRecord<T>): void {
    const known = this.copy.get(record.key);
    if (known && known.version > record.version) return;
    this.copy.set(record.key, record);
    this.writtenDuringRefresh?.set(record.key, record);
    this.touch(record.key);
  }

  /** Drops a key this process just deleted. */
  forget(key: string): void {
    this.copy.delete(key);
    this.writtenDuringRefresh?.set(key, null);
    this.touch(key);
  }

  /**
   * Read-modify-write of one key under compare-and-set: reads the store (the truth, not the copy), applies
   * `change` to its value (undefined when absent) and writes at the version read, again on a concurrent write
   * (at most `maxAttempts` times, then an Error). The written record is remembered.
   */
  async update(
    key: string,
    change: (current: T | undefined) => T,
    options: { readonly ttlMs?: number; readonly maxAttempts?: number } = {},
  ): Promise<StoredRecord<T>> {
    const maxAttempts = options.maxAttempts ?? 20;
    for (let attempt = 1; ; attempt += 1) {
      const current = await this.store.get(key);
      const result = await this.store.put(key, change(current?.value), {
        expectedVersion: current?.version ?? 0,
        ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
      });
      if (result.written) {
        this.remember(result.record);
        return result.record;
      }
      if (attempt >= maxAttempts) {
        throw new Error(`"${key}" of store "${this.store.name}" kept changing under concurrent writes`);
      }
    }
  }

  private touch(key: string): void {
    const reading = this.keyReads.get(key);
    if (reading) reading.touched = true;
  }

  /** Whole reads every `ms` (null: none). */
  private every(ms: number | null): void {
    if (this.timerMs === ms) return;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.timerMs = ms;
    if (ms === null) return;
    this.timer = setInterval(() => {
      this.load().catch((error: unknown) => this.options.onRefreshFailure?.(error));
    }, ms);
    this.timer.unref?.();
  }

  /** Follows the store's feed: each change, a whole read on every (re)connection, polling while it is down. */
  private subscribe(): boolean {
    // Callbacks of a subscription `stop` closed (or of the first connection, made within `watch` by an
    // in-process feed, before the load `start` makes next) change nothing.
    const feed: { subscription?: StoreChangeSubscription } = {};
    const current = (): StoreChangeSubscription | undefined =>
      feed.subscription !== undefined && feed.subscription === this.subscription
        ? feed.subscription
        : undefined;
    feed.subscription = this.store.watch?.({
      change: (change) => this.applyChange(change),
      connected: () => {
        const subscription = current();
        if (!subscription) return;
        this.every(subscription.fullReadIntervalMs);
        this.catchUps += 1;
        this.loadAfterCurrent().catch((error: unknown) => this.options.onRefreshFailure?.(error));
      },
      disconnected: () => {
        if (current()) this.every(this.options.refreshMs);
      },
    });
    const subscription = feed.subscription;
    if (!subscription) return false;
    this.subscription = subscription;
    this.propagation = new PropagationWindow(128, subscription.fullReadIntervalMs);
    this.every(subscription.state().connected ? subscription.fullReadIntervalMs : this.options.refreshMs);
    return true;
  }

  /** A whole read that starts after the one in flight (which may predate the event asking for it). */
  private async loadAfterCurrent(): Promise<void> {
    await this.refreshing?.catch(() => undefined);
    await this.load();
  }

  private applyChange(change: StoreChange): void {
    if (change.store !== this.store.name) return;
    this.expiries.note(change);
    const known = this.copy.get(change.key);
    if (change.version === null) {
      if (!known && !this.keyReads.has(change.key)) return;
      this.deletedSinceRead.add(change.key);
    } else if (known && known.version >= change.version && !this.deletedSinceRead.has(change.key)) {
      // This process wrote it (and remembered it) or read it already.
      return;
    }
    this.readKey(change.key, change.version);
  }

  /** Reads one key again (once more after the read in flight, when one is). */
  private readKey(key: string, announced: number | null = null): void {
    const reading = this.keyReads.get(key);
    if (reading) {
      reading.again = true;
      reading.announced = announced ?? reading.announced;
      return;
    }
    const state: KeyRead = { again: false, touched: false, announced };
    this.keyReads.set(key, state);
    const reset = this.deletedSinceRead.delete(key);
    this.store
      .get(key)
      .then(
        (record) => this.applyRead(key, record, state, reset),
        (error: unknown) => this.options.onRefreshFailure?.(error),
      )
      .finally(() => {
        this.keyReads.delete(key);
        if (state.again) this.readKey(key, state.announced);
      });
  }

  private applyRead(key: string, record: StoredRecord<T> | undefined, state: KeyRead, reset: boolean): void {
    const known = this.copy.get(key);
    // The delay of an announced write is measured once its version is read (not an expiry re-read).
    if (record && record.version === state.announced) this.measure(record);
    if (state.touched) {
      // The owner wrote or deleted the key meanwhile: only a newer version than the owner's is taken.
      if (record && known && record.version > known.version) this.put(record);
    } else if (!record) {
      if (known) this.drop(key);
    } else if (reset || !known || record.version >= known.version) {
      this.put(record);
    }
  }

  private put(record: StoredRecord<T>): void {
    this.copy.set(record.key, record);
    this.writtenDuringRefresh?.set(record.key, record);
  }

  private drop(key: string): void {
    this.copy.delete(key);
    this.writtenDuringRefresh?.set(key, null);
  }

  private measure(record: StoredRecord<T>): void {
    const writtenAt = Date.parse(record.updatedAtUtc);
    if (!Number.isNaN(writtenAt)) this.propagation.add(this.now() - writtenAt);
  }

  private async read(): Promise<void> {
    const written = new Map<string, StoredRecord<T> | null>();
    this.writtenDuringRefresh = written;
    try {
      const records = await this.store.list();
      const next = new Map(records.map((record) => [record.key, record]));
      for (const [key, record] of written) {
        if (record === null) next.delete(key);
        else if ((next.get(key)?.version ?? 0) < record.version) next.set(key, record);
      }
      this.copy = next;
      this.refreshedAtMs = this.now();
    } finally {
      if (this.writtenDuringRefresh === written) this.writtenDuringRefresh = null;
    }
  }
}
