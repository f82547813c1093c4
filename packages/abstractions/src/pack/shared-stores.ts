import { CoreError } from '../errors';
import { DatabaseClientTelemetry, type DatabaseClientTarget } from './database-client-telemetry';
import type { PackTelemetry } from './pack-tracer';
import { redactText, secretsInConnectionString } from '../redaction';
import {
  admitJsonText,
  assertPutOptions,
  assertValidKey,
  assertValidStoreName,
  defaultStoreMaxEntries,
  resolveStoreMaxEntries,
  storeErrorCodes,
  type KeyedStore,
  type PutOptions,
  type StoreClock,
  type StoredRecord,
  type StoreOptions,
  type StoreProvider,
} from './stores';

/*
 * What the shared providers (PostgreSQL, Redis: `shared: true`) have in common whatever server holds their
 * records: values kept as JSON text, times in epoch milliseconds read from the provider's clock and sent to
 * the server (never the server's own clock), the same argument checks, and the same STORE_FULL and
 * STORE_UNAVAILABLE errors. With these, a record or an error reads the same from either provider.
 */

/**
 * The shell of a shared provider: durable and shared; `open` refuses a store name that is not an identifier
 * and resolves the store's bound (the open call's `maxEntries`, else the provider's default, else 10,000)
 * before `openStore` makes the store.
 */
export abstract class SharedStoreProvider implements StoreProvider {
  abstract readonly kind: string;
  readonly durable = true;
  readonly shared = true;
  private readonly defaultMaxEntries: number;
  /** The database the records live in: `db.system.name` and where the server is (never credentials). */
  abstract readonly database: DatabaseClientTarget;
  private clientTelemetry: DatabaseClientTelemetry | undefined;

  /** `defaultMaxEntries`: the bound of a store opened without `maxEntries` (default 10,000). */
  protected constructor(defaultMaxEntries: number | undefined) {
    this.defaultMaxEntries = defaultMaxEntries ?? defaultStoreMaxEntries;
  }

  /** Measures every database operation of every store from now on (`useStoreProvider` calls it). */
  useTelemetry(telemetry: PackTelemetry): void {
    this.databaseTelemetry().use(telemetry);
  }

  /** What the stores run their database operations through: bare until `useTelemetry` was called. */
  protected databaseTelemetry(): DatabaseClientTelemetry {
    return (this.clientTelemetry ??= new DatabaseClientTelemetry(this.database));
  }

  open<T>(name: string, options?: StoreOptions): KeyedStore<T> {
    assertValidStoreName(name);
    return this.openStore<T>(name, resolveStoreMaxEntries(name, options, this.defaultMaxEntries));
  }

  /** Ends the provider's connections; a store used afterwards connects again. */
  abstract close(): Promise<void>;

  /** A store of a valid name with its resolved bound. */
  protected abstract openStore<T>(name: string, maxEntries: number): KeyedStore<T>;
}

/** The clock of a provider given none: the system clock. */
export const systemStoreClock: StoreClock = { now: () => Date.now() };

/** The clock's time in whole epoch milliseconds: what a write is stamped with and expiry is judged against. */
export function storeTimeOf(clock: StoreClock): number {
  return Math.floor(clock.now());
}

/**
 * When a record written at `now` (epoch milliseconds) with `options.ttlMs` expires, rounded up so a TTL is
 * never shortened; undefined when the put gives no TTL.
 */
export function storeExpiryOf(now: number, options: PutOptions | undefined): number | undefined {
  return options?.ttlMs === undefined ? undefined : Math.ceil(now + options.ttlMs);
}

/**
 * Checks the arguments of `put` the way every provider does, before anything reaches the server: the key
 * (STORE_KEY_INVALID), the options (RangeError) and the value (STORE_VALUE_INVALID). Returns the value's JSON text.
 */
export function admitPut(
  storeName: string,
  key: string,
  value: unknown,
  options: PutOptions | undefined,
): string {
  assertValidKey(storeName, key);
  assertPutOptions(options);
  return admitJsonText(storeName, value);
}

/** Checks the arguments of `delete`: the key (STORE_KEY_INVALID) and `expectedVersion` (RangeError). */
export function assertDeleteArguments(
  storeName: string,
  key: string,
  options: { readonly expectedVersion?: number } | undefined,
): void {
  assertValidKey(storeName, key);
  assertPutOptions(options);
}

/** The record a reader gets from a row's JSON text: a fresh copy of the value on every call. */
export function recordFromJson<T>(
  key: string,
  json: string,
  version: number,
  updatedAtMs: number,
): StoredRecord<T> {
  return {
    key,
    value: JSON.parse(json) as T,
    version,
    updatedAtUtc: new Date(updatedAtMs).toISOString(),
  };
}

/** STORE_FULL for a new key refused because the store already holds `count` live records, its bound. */
export function storeFullError(storeName: string, count: number | string, maxEntries: number): CoreError {
  return new CoreError(
    storeErrorCodes.full,
    `Store "${storeName}" holds ${count} records, its bound of ${maxEntries}; delete records or raise MaxEntries.`,
    { store: storeName, maxEntries },
  );
}

/** How a shared provider names its server in STORE_UNAVAILABLE errors. */
export interface StoreServer {
  /** The product, first word of every message: `PostgreSQL`, `Redis`. */
  readonly product: string;
  /** Where the server is, without credentials (`host:port/database`, `host:port`). */
  readonly address: string;
  /** The connection setting (connection string, URL); removed from every message with the secrets it holds. */
  readonly connection: string;
  /** What a message shows where the connection setting stood: `<connection string>`, `<url>`. */
  readonly connectionPlaceholder: string;
}

/**
 * STORE_UNAVAILABLE for a call that could not reach the server or that the server failed:
 * `<product> store "<name>" failed on <address>: [<note>; ]<the driver's message>`. The connection setting, the
 * password (plain and URL-decoded) or secret parameters it holds, and URL credentials are removed from the text.
 */
export function storeUnavailableError(
  server: StoreServer,
  storeName: string,
  error: unknown,
  note?: string,
): CoreError {
  const cause = String((error as Error | undefined)?.message ?? error);
  const message = (note === undefined ? cause : `${note}; ${cause}`)
    .split(server.connection)
    .join(server.connectionPlaceholder);
  return new CoreError(
    storeErrorCodes.unavailable,
    `${server.product} store "${storeName}" failed on ${server.address}: ${redactText(message, secretsInConnectionString(server.connection))}`,
    { store: storeName, server: server.address },
  );
}
