import { CoreError, storeErrorCodes, type ListOptions, type PutOptions } from '@corekit/abstractions';
import { SortedKeys } from './sorted-keys';

/** One record as the core keeps it: the value is already a private copy nobody else holds. */
export interface CoreEntry {
  readonly value: unknown;
  readonly version: number;
  readonly updatedAtMs: number;
  /** Epoch milliseconds from which the record is gone; absent when it never expires. */
  readonly expiresAtMs?: number;
}

/** What a put did, before values are copied out for the caller. */
export type CorePutOutcome =
  | { readonly written: true; readonly key: string; readonly entry: CoreEntry }
  | { readonly written: false; readonly key: string; readonly current: CoreEntry | null };

/**
 * The keyed semantics shared by every in-process provider: versions, compare-and-set, expiry, the entry bound,
 * prefix listing in key order. It is synchronous and knows nothing of persistence or of copying values; a
 * provider forks it to stage a write and keeps the fork only once the write is durable.
 */
export class KeyedCore {
  private readonly entries: Map<string, CoreEntry>;
  /**
   * Every key of `entries` in key order, built by the first `list` and from then on kept in step with
   * `entries` (a key added or removed costs a search inside one chunk), so listing a prefix of a busy store
   * neither sorts again nor walks over deleted keys.
   */
  private sortedKeys: SortedKeys | null;

  constructor(
    readonly storeName: string,
    entries?: Iterable<readonly [string, CoreEntry]>,
    sortedKeys: SortedKeys | null = null,
  ) {
    this.entries = new Map(entries);
    this.sortedKeys = sortedKeys;
  }

  /** A copy of the entries (themselves immutable) and of the key order, to stage a write on. */
  fork(): KeyedCore {
    return new KeyedCore(this.storeName, this.entries, this.sortedKeys?.clone() ?? null);
  }

  get(key: string, now: number): CoreEntry | undefined {
    const entry = this.entries.get(key);
    return entry && isLive(entry, now) ? entry : undefined;
  }

  list(options: ListOptions | undefined, now: number): Array<[string, CoreEntry]> {
    const limit = options?.limit;
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new RangeError(`limit must be a non-negative integer, got ${String(limit)}`);
    }
    const prefix = options?.prefix ?? '';
    this.sortedKeys ??= SortedKeys.of(this.entries.keys());
    const result: Array<[string, CoreEntry]> = [];
    if (limit === 0) return result;
    for (const key of this.sortedKeys.from(prefix)) {
      if (!key.startsWith(prefix)) break;
      const entry = this.get(key, now);
      if (!entry) continue;
      result.push([key, entry]);
      if (result.length === limit) break;
    }
    return result;
  }

  count(now: number): number {
    this.sweep(now);
    return this.entries.size;
  }

  /** Live records with their keys, for persistence (expired ones are dropped on the way). */
  live(now: number): Array<[string, CoreEntry]> {
    this.sweep(now);
    return [...this.entries];
  }

  put(
    key: string,
    value: unknown,
    options: PutOptions | undefined,
    maxEntries: number,
    now: number,
  ): CorePutOutcome {
    const current = this.get(key, now) ?? null;
    const expected = options?.expectedVersion;
    if (expected !== undefined && expected !== (current?.version ?? 0)) {
      return { written: false, key, current };
    }
    if (!current) this.makeRoom(maxEntries, now);
    if (!this.entries.has(key)) this.sortedKeys?.add(key);
    const entry: CoreEntry = {
      value,
      version: (current?.version ?? 0) + 1,
      updatedAtMs: now,
      ...(options?.ttlMs !== undefined ? { expiresAtMs: now + options.ttlMs } : {}),
    };
    this.entries.set(key, entry);
    return { written: true, key, entry };
  }

  delete(key: string, expectedVersion: number | undefined, now: number): boolean {
    const current = this.get(key, now);
    if (!current) {
      this.remove(key);
      return false;
    }
    if (expectedVersion !== undefined && expectedVersion !== current.version) return false;
    return this.remove(key);
  }

  private remove(key: string): boolean {
    if (!this.entries.delete(key)) return false;
    this.sortedKeys?.delete(key);
    return true;
  }

  private makeRoom(maxEntries: number, now: number): void {
    if (this.entries.size < maxEntries) return;
    this.sweep(now);
    if (this.entries.size < maxEntries) return;
    throw new CoreError(
      storeErrorCodes.full,
      `Store "${this.storeName}" holds ${this.entries.size} records, its bound of ${maxEntries}; delete records or raise MaxEntries.`,
      { store: this.storeName, maxEntries },
    );
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) {
      if (!isLive(entry, now)) this.remove(key);
    }
  }
}

function isLive(entry: CoreEntry, now: number): boolean {
  return entry.expiresAtMs === undefined || now < entry.expiresAtMs;
}
