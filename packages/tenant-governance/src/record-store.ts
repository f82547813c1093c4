import { OperationError, StoreMirror, type KeyedStore, type StoredRecord } from '@corekit/abstractions';

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

function plainRecord<V>(record: StoredRecord<V>): StoredRecord<V> {
  return { ...record, value: plain(record.value) };
}

/**
 * One governance store (`builder.openStore`) plus a read copy of its records (a `StoreMirror`). The store
 * holds the truth: commands, lookups and lists read and write it (compare-and-set). The copy only feeds the
 * technology surfaces, which are read synchronously: it takes every write and read of this process at once,
 * and with a shared store (PostgreSQL, Redis) follows the provider's change feed (`SharedStateMirrors`), so
 * another replica's write reaches this process's surfaces within the measured bound of the feed.
 */
export class RecordStore<T extends object> {
  /**
   * @param onConflict Called when a write loses its compare-and-set (another writer changed the record
   * between read and write); the governance registration logs 4529 (governance-version-conflict) from it.
   * @param mirror The read copy; the registration passes one of its `SharedStateMirrors`. Default a copy
   * that follows nothing but `load()` and this process's writes.
   */
  constructor(
    readonly store: KeyedStore<T>,
    private readonly onConflict: (storeName: string) => void = () => undefined,
    private readonly mirror: StoreMirror<T> = new StoreMirror(store, { refreshMs: 5000 }),
  ) {}

  /** Reads the whole store into the copy; a change this process makes meanwhile is kept, not overwritten. */
  load(): Promise<void> {
    return this.mirror.load();
  }

  private remember(key: string, record: StoredRecord<T> | null | undefined): void {
    if (record) this.mirror.remember(plainRecord(record));
    // Only a key the copy holds: forgetting an absent one would mark it as this process's knowledge, and the
    // copy would then refuse a feed read of another replica's write of it racing this read.
    else if (this.mirror.record(key)) this.mirror.forget(key);
  }

  /** The copied records (summary use only). */
  values(): T[] {
    return this.mirror.values();
  }

  async get(key: string): Promise<(T & { version: number }) | undefined> {
    const record = await this.store.get(key);
    this.remember(key, record);
    return record && { ...plain(record.value), version: record.version };
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
      this.remember(key, result.current);
      this.onConflict(this.store.name);
      throw new OperationError(
        'conflict',
        versionConflictCode,
        'The record changed since it was read; read it again and retry the command',
      );
    }
    this.remember(key, result.record);
    return { ...plain(result.record.value), version: result.record.version };
  }

  /** Deletes the key when it still holds `expectedVersion`; answers whether it was deleted. */
  async delete(key: string, expectedVersion: number): Promise<boolean> {
    const deleted = await this.store.delete(key, { expectedVersion });
    if (deleted) this.mirror.forget(key);
    return deleted;
  }

  /** Writes `value` only when the key is absent; answers false when it exists (seeding). */
  async seed(key: string, value: T): Promise<boolean> {
    const result = await this.store.put(key, value, { expectedVersion: 0 });
    if (result.written) this.remember(key, result.record);
    return result.written;
  }
}
