import { CoreError, storeErrorCodes, type ListOptions, type PutOptions } from '@corekit/abstractions';
import { SortedKeys } from './sorted-keys';

/** The longest key a store accepts, in UTF-16 code units. */
export const maxStoreKeyLength = 512;

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

const controlCharacter = /\p{Cc}/u;

/** Refuses an empty key, a key over 512 characters or one holding a control character (STORE_KEY_INVALID). */
export function assertValidKey(storeName: string, key: unknown): asserts key is string {
  const problem =
    typeof key !== 'string'
      ? 'is not a string'
      : key.length === 0
        ? 'is empty'
        : key.length > maxStoreKeyLength
          ? `is ${key.length} characters long (at most ${maxStoreKeyLength})`
          : controlCharacter.test(key)
            ? 'holds a control character'
            : undefined;
  if (problem) {
    throw new CoreError(storeErrorCodes.invalidKey, `A key of store "${storeName}" ${problem}.`, {
      store: storeName,
    });
  }
}

const storeNamePattern = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;

/**
 * Store names are identifiers (a letter, then letters, digits, `-` or `_`, at most 100 characters) so that
 * every provider can use them as file names, table keys or key prefixes. Refused with STORE_KEY_INVALID.
 */
export function assertValidStoreName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !storeNamePattern.test(name)) {
    throw new CoreError(
      storeErrorCodes.invalidKey,
      `Store name ${JSON.stringify(name)} is not an identifier (a letter, then letters, digits, "-" or "_", at most 100 characters).`,
      { store: String(name) },
    );
  }
}

/** Checks the options of put and delete; a wrong number here is a programming error (RangeError). */
export function assertPutOptions(options: PutOptions | undefined): void {
  const expected = options?.expectedVersion;
  if (expected !== undefined && (!Number.isSafeInteger(expected) || expected < 0)) {
    throw new RangeError(`expectedVersion must be a non-negative integer, got ${String(expected)}`);
  }
  const ttl = options?.ttlMs;
  if (ttl !== undefined && (!Number.isFinite(ttl) || ttl <= 0)) {
    throw new RangeError(`ttlMs must be a positive number of milliseconds, got ${String(ttl)}`);
  }
}

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
