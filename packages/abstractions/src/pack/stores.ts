import type { DatabaseClientTarget } from './database-client-telemetry';
import type { PackTelemetry } from './pack-tracer';
import { CoreError } from '../errors';
import type { StoreMigration } from './store-schema';
import type { WatchableStore } from './store-change-feed';

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

/**
 * A named keyed store. Every method is safe to call concurrently; writes to one key are serialized. A store
 * whose provider has a change feed also offers `watch` (`store-change-feed.ts`).
 */
export interface KeyedStore<T> extends WatchableStore {
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
  /**
   * The schema version of the records this code writes and the newest it reads (default 1, the first shape).
   * Raise it when a record's shape changes and add the migration from the previous version; a record of a
   * newer version is refused with STORE_SCHEMA_TOO_NEW (`store-schema.ts`).
   */
  readonly schemaVersion?: number;
  /** `migrations[n]` turns a record of schema version n into version n + 1: one per version below `schemaVersion`. */
  readonly migrations?: Readonly<Record<number, StoreMigration>>;
}

/** What a store provider guarantees (`builder.storeTraits()`). */
export interface StoreProviderTraits {
  /** `memory`, `file`, `postgresql`, `redis`... */
  readonly kind: string;
  /** True when records survive a restart of the process. */
  readonly durable: boolean;
  /** True when several processes see the same records. */
  readonly shared: boolean;
  /**
   * The provider's change feed, when its stores offer `watch`: the feed contract version it implements and
   * the path changes take (`in-process`, `postgresql-listen-notify`, `redis-pubsub`). Absent: no feed.
   */
  readonly changeFeed?: StoreChangeFeedTraits;
}

/** What a provider's change feed is (`StoreProviderTraits.changeFeed`). */
export interface StoreChangeFeedTraits {
  /** The change-feed contract version (`storeChangeFeedVersion`, 1). */
  readonly version: number;
  /** How changes travel: `in-process`, `postgresql-listen-notify`, `redis-pubsub`... */
  readonly path: string;
}

/** Where stores come from: the engine's configured provider (`Engine:Stores`), or one a package adds. */
export interface StoreProvider extends StoreProviderTraits {
  open<T>(name: string, options?: StoreOptions): KeyedStore<T>;
  /**
   * The database a shared provider talks to, for the database-client telemetry (`db.system.name`:
   * `postgresql`, `redis`); absent for in-process providers (memory, file), which measure nothing.
   */
  readonly database?: DatabaseClientTarget;
  /**
   * Called once by `useStoreProvider` with the engine's meter and tracer: the provider then measures every
   * database operation per the semantic conventions (`db.client.operation.duration`, CLIENT spans).
   */
  useTelemetry?(telemetry: PackTelemetry): void;
  /**
   * Flushes and releases resources (pools, clients); called when the engine stops (`engine.stop()`, not a
   * restart). Stores used again afterwards (a start after a stop) reopen what they need.
   */
  close?(): Promise<void>;
}

/** The source of time a provider stamps records and checks expiry with; tests pass a manual clock. */
export interface StoreClock {
  /** Epoch milliseconds. */
  now(): number;
}

/** Stable error codes of stores. */
export const storeErrorCodes = {
  full: 'STORE_FULL',
  corrupt: 'STORE_CORRUPT',
  invalidKey: 'STORE_KEY_INVALID',
  notSerializable: 'STORE_VALUE_INVALID',
  /** A shared provider's server could not be reached or failed the statement (PostgreSQL, Redis). */
  unavailable: 'STORE_UNAVAILABLE',
} as const;

/** The per-store bound when neither `openStore` nor `Engine:Stores:MaxEntries` gives one. */
export const defaultStoreMaxEntries = 10_000;

/** The longest key a store accepts, in UTF-16 code units. */
export const maxStoreKeyLength = 512;

const controlCharacter = /\p{Cc}/u;

/**
 * Refuses an empty key, a key over 512 characters or one holding a control character (STORE_KEY_INVALID).
 * Every provider calls it before touching its backend, so every provider accepts the same keys.
 */
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

/** Checks the options of list; a negative or fractional limit is a programming error (RangeError). */
export function assertListOptions(options: ListOptions | undefined): void {
  const limit = options?.limit;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw new RangeError(`limit must be a non-negative integer, got ${String(limit)}`);
  }
}

/** A store's bound: the open call's `maxEntries`, else `fallback`; must be a positive integer (RangeError). */
export function resolveStoreMaxEntries(
  name: string,
  options: StoreOptions | undefined,
  fallback: number,
): number {
  const maxEntries = options?.maxEntries ?? fallback;
  if (!Number.isSafeInteger(maxEntries) || maxEntries <= 0) {
    throw new RangeError(
      `maxEntries of store "${name}" must be a positive integer, got ${String(maxEntries)}`,
    );
  }
  return maxEntries;
}

/**
 * Admission of the durable providers (file, PostgreSQL, Redis): the value must survive JSON unchanged (null,
 * booleans, finite numbers, strings, arrays, plain objects; `undefined` object properties are dropped as JSON
 * drops them). Anything else (Date, Map, class instances, bigint, NaN, functions, symbols, cycles) is refused
 * with STORE_VALUE_INVALID, so what a reader gets after a restart, or in another process, equals what it got
 * before. Returns the JSON text of the value.
 */
export function admitJsonText(storeName: string, value: unknown): string {
  const problem = jsonProblem(value, '$', new Set());
  if (problem) {
    throw new CoreError(
      storeErrorCodes.notSerializable,
      `A value for store "${storeName}" is not JSON-serialisable: ${problem}.`,
      { store: storeName },
    );
  }
  return JSON.stringify(value);
}

function jsonProblem(value: unknown, at: string, seen: Set<object>): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${at} is ${value}`;
  if (typeof value !== 'object') return `${at} is a ${typeof value}`;
  if (seen.has(value)) return `${at} is a cycle`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const problem = jsonProblem(value[index], `${at}[${index}]`, seen);
        if (problem) return problem;
      }
      return undefined;
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    // Any realm's Object.prototype (its own prototype is null): values cloned in a test VM are still plain.
    const plain = prototype === null || Object.getPrototypeOf(prototype) === null;
    if (!plain || Object.prototype.toString.call(value) !== '[object Object]')
      return `${at} is not a plain object`;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      const problem = jsonProblem(item, `${at}.${key}`, seen);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}
