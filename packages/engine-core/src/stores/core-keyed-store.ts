import {
  assertPutOptions,
  assertValidKey,
  type KeyedStore,
  type ListOptions,
  type PutOptions,
  type PutResult,
  type StoreChangeListener,
  type StoreChangeSubscription,
  type StoredRecord,
} from '@corekit/abstractions';
import { isoAt, type Clock } from '../clock';
import type { InProcessChangeFeed } from './in-process-change-feed';
import type { CoreEntry, KeyedCore } from './keyed-core';
import { copyValue } from './value-copy';

/**
 * Where a store's core lives. `read` gives the committed core; `write` runs a mutation on it and resolves once
 * the result is as durable as the provider makes it. A backend serializes its writes.
 */
export interface CoreBackend {
  read(): Promise<KeyedCore>;
  /** `mutate` returns its answer and whether it changed anything (an unchanged core is not persisted). */
  write<R>(mutate: (core: KeyedCore) => { readonly result: R; readonly changed: boolean }): Promise<R>;
}

/** How a provider admits values: returns a private copy, or throws CoreError STORE_VALUE_INVALID. */
export type ValueAdmission = (storeName: string, value: unknown) => unknown;

export interface CoreKeyedStoreOptions {
  readonly name: string;
  readonly backend: CoreBackend;
  readonly clock: Clock;
  readonly maxEntries: number;
  readonly admit: ValueAdmission;
  /** The provider's change feed: every committed write and delete is published on it. */
  readonly changes: InProcessChangeFeed;
}

/**
 * The one `KeyedStore` over a `KeyedCore`, used by the memory and file providers alike. Values are copied on
 * the way in (by the provider's admission) and on the way out (structuredClone, on first read of `value`), so no
 * caller holds stored state.
 */
export class CoreKeyedStore<T> implements KeyedStore<T> {
  readonly name: string;

  constructor(private readonly options: CoreKeyedStoreOptions) {
    this.name = options.name;
  }

  async get(key: string): Promise<StoredRecord<T> | undefined> {
    assertValidKey(this.name, key);
    const core = await this.options.backend.read();
    const entry = core.get(key, this.options.clock.now());
    return entry ? toRecord<T>(key, entry) : undefined;
  }

  async list(options?: ListOptions): Promise<readonly StoredRecord<T>[]> {
    const core = await this.options.backend.read();
    return core.list(options, this.options.clock.now()).map(([key, entry]) => toRecord<T>(key, entry));
  }

  async put(key: string, value: T, options?: PutOptions): Promise<PutResult<T>> {
    assertValidKey(this.name, key);
    assertPutOptions(options);
    const admitted = this.options.admit(this.name, value);
    const outcome = await this.options.backend.write((core) => {
      const result = core.put(key, admitted, options, this.options.maxEntries, this.options.clock.now());
      return { result, changed: result.written };
    });
    if (outcome.written) {
      this.options.changes.publish({
        store: this.name,
        key,
        version: outcome.entry.version,
        writtenAtMs: outcome.entry.updatedAtMs,
        ...(outcome.entry.expiresAtMs === undefined ? {} : { expiresAtMs: outcome.entry.expiresAtMs }),
      });
    }
    return outcome.written
      ? { written: true, record: toRecord<T>(key, outcome.entry) }
      : { written: false, current: outcome.current ? toRecord<T>(key, outcome.current) : null };
  }

  async delete(key: string, options?: { readonly expectedVersion?: number }): Promise<boolean> {
    assertValidKey(this.name, key);
    assertPutOptions(options);
    const deleted = await this.options.backend.write((core) => {
      const removed = core.delete(key, options?.expectedVersion, this.options.clock.now());
      return { result: removed, changed: removed };
    });
    if (deleted) this.options.changes.publish({ store: this.name, key, version: null });
    return deleted;
  }

  /** Changes of this store made through this provider instance (every writer of an in-process store). */
  watch(listener: StoreChangeListener): StoreChangeSubscription {
    return this.options.changes.watch(this.name, listener);
  }

  async count(): Promise<number> {
    const core = await this.options.backend.read();
    return core.count(this.options.clock.now());
  }
}

/**
 * A record handed to a caller. The value is copied when first read, not before: entries are immutable (a
 * write replaces the entry), so a late copy equals an early one, and callers that only look at the key or
 * version (a compare-and-set put, a claim) pay no copy. Later reads give the same copy.
 */
function toRecord<T>(key: string, entry: CoreEntry): StoredRecord<T> {
  let value: T | undefined;
  let copied = false;
  let updatedAtUtc: string | undefined;
  return {
    key,
    get value(): T {
      if (!copied) {
        value = copyValue(entry.value as T);
        copied = true;
      }
      return value as T;
    },
    version: entry.version,
    get updatedAtUtc(): string {
      return (updatedAtUtc ??= isoAt(entry.updatedAtMs));
    },
  };
}
