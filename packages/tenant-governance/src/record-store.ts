import { OperationError, type KeyedStore } from '@corekit/abstractions';

/** Error code of a compare-and-set write that lost a race or a caller's stale `expectedVersion`. */
export const versionConflictCode = 'GOVERNANCE_VERSION_CONFLICT';

/**
 * A plain copy of a stored value. Stores hand out `structuredClone` copies, whose nested objects belong to
 * another realm under jest's VM contexts; the file store's JSON admission then refuses them when they are
 * written back. A JSON round trip makes them plain objects of this realm (values are JSON by contract).
 */
function plain<V>(value: V): V {
  return JSON.parse(JSON.stringify(value)) as V;
}

/**
 * One governance store (`builder.openStore`) plus a summary cache of its records. The store holds the
 * truth: commands, lookups and lists read and write it (compare-and-set). The cache only feeds the
 * technology surfaces, which are read synchronously; it is loaded at start and updated by every write and
 * read of this process, and with a shared store (PostgreSQL, Redis) reloaded by the `SharedStateRefresher`,
 * so another replica's write reaches this process's surfaces within `SharedStateRefreshIntervalSeconds`.
 */
export class RecordStore<T extends object> {
  private cache = new Map<string, T>();
  /** Keys this process changed while a reload was listing the store: the reload keeps their newer value. */
  private changedDuringLoad: Map<string, T | undefined> | undefined;

  /**
   * @param onConflict Called when a write loses its compare-and-set (another writer changed the record
   * between read and write); the governance registration logs 4529 (governance-version-conflict) from it.
   */
  constructor(
    readonly store: KeyedStore<T>,
    private readonly onConflict: (storeName: string) => void = () => undefined,
  ) {}

  /** Reloads the cache from the store; a change this process makes meanwhile is kept, not overwritten. */
  async load(): Promise<void> {
    const changed = new Map<string, T | undefined>();
    this.changedDuringLoad = changed;
    try {
      const records = await this.store.list();
      const cache = new Map<string, T>();
      for (const record of records) cache.set(record.key, plain(record.value));
      for (const [key, value] of changed) {
        if (value === undefined) cache.delete(key);
        else cache.set(key, value);
      }
      this.cache = cache;
    } finally {
      if (this.changedDuringLoad === changed) this.changedDuringLoad = undefined;
    }
  }

  private remember(key: string, value: T | undefined): void {
    if (value === undefined) this.cache.delete(key);
    else this.cache.set(key, value);
    this.changedDuringLoad?.set(key, value);
  }

  /** The cached records (summary use only). */
  values(): T[] {
    return [...this.cache.values()];
  }

  async get(key: string): Promise<(T & { version: number }) | undefined> {
    const record = await this.store.get(key);
    if (!record) {
      this.remember(key, undefined);
      return undefined;
    }
    const value = plain(record.value);
    this.remember(key, value);
    return { ...value, version: record.version };
  }

  async list(prefix: string): Promise<Array<T & { version: number }>> {
    const records = await this.store.list({ prefix });
    return records.map((record) => ({ ...plain(record.value), version: record.version }));
  }

  /**
   * Writes `value` when the key still has `expectedVersion` (0: only when absent). A lost race answers
   * OperationError conflict 409 GOVERNANCE_VERSION_CONFLICT; the caller may retry the command.
   */
  async write(key: string, value: T, expectedVersion: number): Promise<T & { version: number }> {
    const { version: _ignored, ...stored } = value as T & { version?: number };
    const result = await this.store.put(key, stored as T, { expectedVersion });
    if (!result.written) {
      this.remember(key, result.current ? plain(result.current.value) : undefined);
      this.onConflict(this.store.name);
      throw new OperationError(
        'conflict',
        versionConflictCode,
        'The record changed since it was read; read it again and retry the command',
      );
    }
    const written = plain(result.record.value);
    this.remember(key, written);
    return { ...written, version: result.record.version };
  }

  /** Deletes the key when it still holds `expectedVersion`; answers whether it was deleted. */
  async delete(key: string, expectedVersion: number): Promise<boolean> {
    const deleted = await this.store.delete(key, { expectedVersion });
    if (deleted) this.remember(key, undefined);
    return deleted;
  }

  /** Writes `value` only when the key is absent; answers false when it exists (seeding). */
  async seed(key: string, value: T): Promise<boolean> {
    const result = await this.store.put(key, value, { expectedVersion: 0 });
    if (result.written) this.remember(key, plain(result.record.value));
    return result.written;
  }
}
