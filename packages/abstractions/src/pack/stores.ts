/**
 * Keyed durable state for packs: governance records, retry queues, replay caches, idempotency ledgers,
 * leases and checkpoints. Every implementation (memory, local file; PostgreSQL and Redis behind the same
 * contract) keeps the same semantics, so a pack is written once and a host picks where the truth lives.
 */

/** One stored record with the version the store gave it (for compare-and-set). */
export interface StoredRecord<T> {
  readonly key: string;
  readonly value: T;
  /** Increases by one on every write of the key; a new key starts at 1. */
  readonly version: number;
  readonly updatedAtUtc: string;
}

/** Options of `put`. */
export interface PutOptions {
  /**
   * Compare-and-set: write only when the key's current version is this one; 0 means "only when absent".
   * Omit for an unconditional write.
   */
  readonly expectedVersion?: number;
  /** Drop the record after this many milliseconds (leases, replay entries). Omit to keep it. */
  readonly ttlMs?: number;
}

/** The answer of `put`: written with the new version, or refused because the version did not match. */
export type PutResult<T> =
  | { readonly written: true; readonly record: StoredRecord<T> }
  | { readonly written: false; readonly current: StoredRecord<T> | null };

export interface ListOptions {
  /** Only keys starting with this prefix. */
  readonly prefix?: string;
  /** At most this many records, in key order. Default: every record (bounded by the store's MaxEntries). */
  readonly limit?: number;
}

/** A named keyed store. Every method is safe to call concurrently; writes to one key are serialized. */
export interface KeyedStore<T> {
  readonly name: string;
  get(key: string): Promise<StoredRecord<T> | undefined>;
  list(options?: ListOptions): Promise<readonly StoredRecord<T>[]>;
  put(key: string, value: T, options?: PutOptions): Promise<PutResult<T>>;
  /** Deletes the key; with `expectedVersion`, only when it still holds that version. True when deleted. */
  delete(key: string, options?: { readonly expectedVersion?: number }): Promise<boolean>;
  /** Number of live records. */
  count(): Promise<number>;
}

/** Options of `openStore`. */
export interface StoreOptions {
  /**
   * Most records kept. A put of a new key beyond it is refused with CoreError STORE_FULL (the caller
   * decides what to drop); expired records never count. Default 10,000.
   */
  readonly maxEntries?: number;
  /** What the store holds, for operators (listed with the store). */
  readonly description?: string;
}

/** What a store provider guarantees (`builder.storeTraits()`). */
export interface StoreProviderTraits {
  /** `memory`, `file`, `postgresql`, `redis`... */
  readonly kind: string;
  /** True when records survive a restart of the process. */
  readonly durable: boolean;
  /** True when several processes see the same records. */
  readonly shared: boolean;
}

/** Where stores come from: the engine's configured provider (`Engine:Stores`), or one a package adds. */
export interface StoreProvider extends StoreProviderTraits {
  open<T>(name: string, options?: StoreOptions): KeyedStore<T>;
  /** Flushes and releases resources; called when the engine is disposed. */
  close?(): Promise<void>;
}

/** Stable error codes of stores. */
export const storeErrorCodes = {
  full: 'STORE_FULL',
  corrupt: 'STORE_CORRUPT',
  invalidKey: 'STORE_KEY_INVALID',
  notSerializable: 'STORE_VALUE_INVALID',
} as const;
