import type { KeyedStore, StoredRecord } from './stores';

/** Options of a {@link StoreMirror}. */
export interface StoreMirrorOptions {
  /**
   * Milliseconds between two reads of the whole store while the mirror runs with `refresh: true`: with a
   * shared store provider, what another replica wrote is in this copy at most this long plus one store round
   * trip after it was written.
   */
  readonly refreshMs: number;
  /** Told about a refresh that failed (the copy is kept as it was; the next refresh tries again). */
  readonly onRefreshFailure?: (error: unknown) => void;
}

/**
 * A synchronous read copy of a keyed store, for catalog, view and snapshot reads (which are synchronous).
 * The store stays the truth: the owner remembers every record it writes (`remember`, so its own writes are
 * read at once), and, when the store is shared by replicas, the mirror reads the whole store again every
 * `refreshMs`, so a write of another replica is seen within that bound. Without a shared store the copy is
 * only refreshed by `load()` (every writer is in this process).
 */
export class StoreMirror<T> {
  private copy = new Map<string, StoredRecord<T>>();
  /** Keys remembered while a refresh was reading, with their record: the refresh must not undo them. */
  private writtenDuringRefresh: Map<string, StoredRecord<T> | null> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private refreshing: Promise<void> | null = null;
  private refreshedAtMs: number | null = null;

  constructor(
    private readonly store: KeyedStore<T>,
    private readonly options: StoreMirrorOptions,
  ) {}

  /** Epoch milliseconds of the last completed read of the whole store; null before the first. */
  get lastRefreshMs(): number | null {
    return this.refreshedAtMs;
  }

  /** True while the mirror re-reads the store on its interval (a shared store). */
  get refreshesOnInterval(): boolean {
    return this.timer !== null;
  }

  /** Reads the whole store into the copy now (one at a time: a call during a read waits for that read). */
  load(): Promise<void> {
    this.refreshing ??= this.read().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * Loads the copy and (with `refresh: true`, for a shared store) re-reads it every `refreshMs` until
   * `stop()`, also when this first load fails. The timer does not keep the process alive.
   */
  async start(refresh: boolean): Promise<void> {
    this.stop();
    if (refresh) {
      this.timer = setInterval(() => {
        this.load().catch((error: unknown) => this.options.onRefreshFailure?.(error));
      }, this.options.refreshMs);
      this.timer.unref?.();
    }
    await this.load();
  }

  /** Stops the interval reads (the copy is kept). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
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
  }

  /** Drops a key this process just deleted. */
  forget(key: string): void {
    this.copy.delete(key);
    this.writtenDuringRefresh?.set(key, null);
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
      this.refreshedAtMs = Date.now();
    } finally {
      if (this.writtenDuringRefresh === written) this.writtenDuringRefresh = null;
    }
  }
}
