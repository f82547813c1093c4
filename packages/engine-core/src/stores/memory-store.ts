import {
  assertValidStoreName,
  CoreError,
  defaultStoreMaxEntries,
  resolveStoreMaxEntries,
  storeChangeFeedVersion,
  storeErrorCodes,
  type KeyedStore,
  type StoreOptions,
  type StoreProvider,
} from '@corekit/abstractions';
import { systemClock, type Clock } from '../clock';
import { CoreKeyedStore, type CoreBackend } from './core-keyed-store';
import { InProcessChangeFeed, inProcessFeedPath } from './in-process-change-feed';
import { KeyedCore } from './keyed-core';
import { copyValue } from './value-copy';

/** Options shared by the in-process providers. */
export interface InProcessStoreProviderOptions {
  /** Source of time for `updatedAtUtc` and expiry; tests pass `manualClock()`. Default: the system clock. */
  readonly clock?: Clock;
  /** Bound of a store opened without `maxEntries`. Default 10,000. */
  readonly defaultMaxEntries?: number;
  /** The safety-net full-read interval a watcher is told (`Engine:Stores:ChangeFeed`). Default 5 minutes. */
  readonly fullReadIntervalMs?: number;
}

/** Admission of the memory provider: a structured clone; functions, symbols and the like are refused. */
export function admitCloneable(storeName: string, value: unknown): unknown {
  try {
    return copyValue(value);
  } catch (error) {
    throw new CoreError(
      storeErrorCodes.notSerializable,
      `A value for store "${storeName}" cannot be copied: ${(error as Error).message}`,
      { store: storeName },
      { cause: error },
    );
  }
}

/**
 * Stores held in this provider instance's memory: lost when the process exits, invisible to other processes.
 * For tests and single-replica hosts whose state may be rebuilt; opening the same name twice gives two handles
 * on the same records. It cannot bound memory beyond each store's MaxEntries and the size of the values.
 * `close` releases nothing and keeps the records: the engine closes its provider on stop, and a start after a
 * stop sees what was there (the records go with the provider instance).
 */
export class MemoryStoreProvider implements StoreProvider {
  readonly kind = 'memory';
  readonly durable = false;
  readonly shared = false;
  /** Changes are handed to the watchers of this provider instance in-process (`KeyedStore.watch`). */
  readonly changeFeed = { version: storeChangeFeedVersion, path: inProcessFeedPath };
  private readonly changes: InProcessChangeFeed;
  private readonly cores = new Map<string, KeyedCore>();
  private readonly clock: Clock;
  private readonly defaultMaxEntries: number;

  constructor(options: InProcessStoreProviderOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.defaultMaxEntries = options.defaultMaxEntries ?? defaultStoreMaxEntries;
    this.changes = new InProcessChangeFeed(options.fullReadIntervalMs);
  }

  open<T>(name: string, options?: StoreOptions): KeyedStore<T> {
    assertValidStoreName(name);
    const maxEntries = resolveStoreMaxEntries(name, options, this.defaultMaxEntries);
    let core = this.cores.get(name);
    if (!core) {
      core = new KeyedCore(name);
      this.cores.set(name, core);
    }
    const committed = core;
    const backend: CoreBackend = {
      read: async () => committed,
      write: async (mutate) => mutate(committed).result,
    };
    return new CoreKeyedStore<T>({
      name,
      backend,
      clock: this.clock,
      maxEntries,
      admit: admitCloneable,
      changes: this.changes,
    });
  }

  async close(): Promise<void> {}
}
