import { CoreError } from '../errors';
import {
  storeErrorCodes,
  type KeyedStore,
  type ListOptions,
  type PutOptions,
  type PutResult,
  type StoredRecord,
} from './stores';

/**
 * Schema versions of stored records. Every record a store opened with `builder.openStore` holds is kept in an
 * envelope naming the version of its shape, `{ "$schemaVersion": 2, "value": ... }`, so the next release of
 * the package that wrote it can tell which shape it reads. A record written before envelopes existed (a bare
 * value) is version 1, the first shape of every store.
 *
 * Migrations run on read: a record older than the store's `schemaVersion` is passed through
 * `migrations[n]` (n → n + 1) up to the current version before the caller sees it, and is written in the
 * current shape the next time the package writes that key. The stored record is not rewritten by a read: a
 * rewrite would change its version under a caller's compare-and-set, drop its TTL (the contract does not say
 * when a record expires) and announce a change nobody made; and a replica of the previous release sharing the
 * store keeps reading records it understands until a write of the new release replaces them.
 *
 * A record newer than the store's `schemaVersion` (written by a later release) is refused with
 * STORE_SCHEMA_TOO_NEW: the engine looks for one in every durable store when it starts, and every read refuses
 * one written afterwards, so a downgraded package never misreads or overwrites state it does not understand.
 */

/** The version of a record written before envelopes existed, and of a store opened without `schemaVersion`. */
export const legacyStoreSchemaVersion = 1;

/** The envelope field naming a record's schema version. */
export const storeSchemaVersionField = '$schemaVersion';

/** Error codes of schema versions (with `storeErrorCodes.corrupt` for a malformed envelope). */
export const storeSchemaErrorCodes = {
  /** A record was written by a later release, with a schema version this code does not know. */
  tooNew: 'STORE_SCHEMA_TOO_NEW',
  /** Two `openStore` calls name one store with different schema versions. */
  conflict: 'STORE_SCHEMA_CONFLICT',
  /**
   * A provider's physical layout (the file format, the PostgreSQL table, the Redis keys) was written by a later
   * release of the provider package: refused before anything is read or written.
   */
  layoutTooNew: 'STORE_LAYOUT_TOO_NEW',
} as const;

/** The error itself when it is a STORE_LAYOUT_TOO_NEW refusal, which a provider passes on as it is (not as STORE_UNAVAILABLE). */
export function layoutRefusal(error: unknown): CoreError | undefined {
  return error instanceof CoreError && error.code === storeSchemaErrorCodes.layoutTooNew ? error : undefined;
}

/**
 * STORE_LAYOUT_TOO_NEW for a provider whose `where` (a file, a table, a key prefix) has layout `found`, newer
 * than the `supported` one of `component` (the provider package).
 */
export function layoutTooNewError(
  where: string,
  component: string,
  found: number,
  supported: number,
): CoreError {
  return new CoreError(
    storeSchemaErrorCodes.layoutTooNew,
    `${where} has store layout ${found}, but the installed ${component} reads layout ${supported} at most: it was written by a later release. Run that release (or a later one) again, or restore the stores from a backup taken before it was installed.`,
    { where, component, foundLayout: found, supportedLayout: supported },
  );
}

/**
 * Turns the value of a record of one schema version into the next version's shape (`migrations[1]` reads a
 * version-1 value and returns a version-2 value). It must be pure: it runs on every read of an old record,
 * in every replica, and a throw marks the record corrupt (STORE_CORRUPT naming the store and key).
 */
export type StoreMigration = (
  value: unknown,
  context: { readonly store: string; readonly key: string },
) => unknown;

/** The schema of a store's records (`StoreOptions.schemaVersion` and `migrations`). */
export interface StoreSchema {
  /** The version this code writes and the newest it reads. */
  readonly version: number;
  /** One migration per version below `version`, keyed by the version it reads. */
  readonly migrations: Readonly<Record<number, StoreMigration>>;
}

/** The schema of store `name` from its open options; a missing migration is a programming error (RangeError). */
export function resolveStoreSchema(
  name: string,
  options: {
    readonly schemaVersion?: number;
    readonly migrations?: Readonly<Record<number, StoreMigration>>;
  } = {},
): StoreSchema {
  const version = options.schemaVersion ?? legacyStoreSchemaVersion;
  if (!Number.isSafeInteger(version) || version < 1) {
    throw new RangeError(
      `schemaVersion of store "${name}" must be a positive integer, got ${String(version)}`,
    );
  }
  const migrations = options.migrations ?? {};
  for (let from = 1; from < version; from += 1) {
    if (typeof migrations[from] !== 'function') {
      throw new RangeError(
        `Store "${name}" is at schema version ${version} but has no migration from version ${from} (migrations[${from}]).`,
      );
    }
  }
  return { version, migrations };
}

/** The schema version of a stored value: its envelope's, or 1 for a bare (legacy) value. */
export function storedSchemaVersion(store: string, key: string, stored: unknown): number {
  if (!isEnvelopeLike(stored)) return legacyStoreSchemaVersion;
  const version = stored[storeSchemaVersionField];
  const keys = Object.keys(stored);
  if (
    !Number.isSafeInteger(version) ||
    (version as number) < 1 ||
    !('value' in stored) ||
    keys.length !== 2
  ) {
    throw corruptRecord(store, key, `its "${storeSchemaVersionField}" envelope is malformed`);
  }
  return version as number;
}

/** The stored form of `value`: the envelope of the schema's version. */
export function encodeStoredValue(schema: StoreSchema, value: unknown): unknown {
  return { [storeSchemaVersionField]: schema.version, value };
}

/**
 * The value of a stored record in the schema's current shape: unwrapped, migrated when older, refused
 * (STORE_SCHEMA_TOO_NEW) when newer, STORE_CORRUPT when the envelope is malformed or a migration throws.
 */
export function decodeStoredValue(store: string, schema: StoreSchema, key: string, stored: unknown): unknown {
  const found = storedSchemaVersion(store, key, stored);
  if (found > schema.version) throw schemaTooNewError(store, found, schema.version, key);
  let value = isEnvelopeLike(stored) ? stored.value : stored;
  for (let from = found; from < schema.version; from += 1) {
    try {
      value = schema.migrations[from](value, { store, key });
    } catch (error) {
      throw corruptRecord(
        store,
        key,
        `the migration from schema version ${from} failed: ${message(error)}`,
        error,
      );
    }
  }
  return value;
}

/** STORE_SCHEMA_TOO_NEW: what was found, what this code reads, and what to do. */
export function schemaTooNewError(store: string, found: number, supported: number, key?: string): CoreError {
  const where = key === undefined ? '' : ` (key "${key}")`;
  return new CoreError(
    storeSchemaErrorCodes.tooNew,
    `Store "${store}" holds a record of schema version ${found}${where}, but the installed package reads schema versions up to ${supported}: the state was written by a later release. Run that release (or a later one) again, or restore the store from a backup taken before it was installed; this release refuses to read or overwrite it.`,
    { store, foundVersion: found, supportedVersion: supported, ...(key === undefined ? {} : { key }) },
  );
}

/**
 * `inner` (whose values are envelopes) seen in the schema's current shape: reads decode (and migrate) every
 * record, writes store the current version's envelope. Versions, TTLs, compare-and-set and the change feed
 * (`watch`) are the inner store's, unchanged.
 */
export function versionedStore<T>(inner: KeyedStore<unknown>, schema: StoreSchema): KeyedStore<T> {
  const name = inner.name;
  const decode = (record: StoredRecord<unknown>): StoredRecord<T> => ({
    key: record.key,
    value: decodeStoredValue(name, schema, record.key, record.value) as T,
    version: record.version,
    updatedAtUtc: record.updatedAtUtc,
  });
  return {
    name,
    get: async (key: string): Promise<StoredRecord<T> | undefined> => {
      const record = await inner.get(key);
      return record && decode(record);
    },
    list: async (options?: ListOptions): Promise<readonly StoredRecord<T>[]> =>
      (await inner.list(options)).map(decode),
    put: async (key: string, value: T, options?: PutOptions): Promise<PutResult<T>> => {
      const result = await inner.put(key, encodeStoredValue(schema, value), options);
      return result.written
        ? { written: true, record: decode(result.record) }
        : { written: false, current: result.current && decode(result.current) };
    },
    delete: (key: string, options?: { readonly expectedVersion?: number }): Promise<boolean> =>
      inner.delete(key, options),
    count: (): Promise<number> => inner.count(),
    // Changes name keys and versions, never values: the inner store's feed is this store's.
    ...(inner.watch ? { watch: inner.watch.bind(inner) } : {}),
  };
}

/** What a scan of a store's records found (`scanStoreSchema`). */
export interface StoreSchemaScan {
  readonly store: string;
  readonly records: number;
  /** Records older than the current version, migrated on every read until the package writes them again. */
  readonly behind: number;
  /** The newest schema version found; 0 for an empty store. */
  readonly newest: number;
}

/**
 * Reads every record of `inner` (the envelopes) and refuses the store (STORE_SCHEMA_TOO_NEW) when one is newer
 * than the schema: the check the engine makes when it starts. A malformed envelope is STORE_CORRUPT.
 */
export async function scanStoreSchema(
  inner: KeyedStore<unknown>,
  schema: StoreSchema,
): Promise<StoreSchemaScan> {
  const records = await inner.list();
  let newest = 0;
  let behind = 0;
  for (const record of records) {
    const found = storedSchemaVersion(inner.name, record.key, record.value);
    if (found > schema.version) throw schemaTooNewError(inner.name, found, schema.version, record.key);
    newest = Math.max(newest, found);
    if (found < schema.version) behind += 1;
  }
  return { store: inner.name, records: records.length, behind, newest };
}

function isEnvelopeLike(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.prototype.hasOwnProperty.call(value, storeSchemaVersionField)
  );
}

function corruptRecord(store: string, key: string, problem: string, cause?: unknown): CoreError {
  return new CoreError(
    storeErrorCodes.corrupt,
    `Record "${key}" of store "${store}" is corrupt (${problem}); it was left as it is: restore the store from a backup, or delete the key.`,
    { store, key },
    cause === undefined ? undefined : { cause },
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
