import { OperationError, type KeyedStore } from '@corekit/abstractions';

/** Error code of a compare-and-set write that lost a race or a caller's stale `expectedVersion`. */
export const versionConflictCode = 'GOVERNANCE_VERSION_CONFLICT';

/**
 * One governance store (`builder.openStore`) plus a summary cache of its records. The store holds the
 * truth: commands read and write it with compare-and-set. The cache only feeds the technology surfaces,
 * which are read synchronously; it is loaded at start and updated after every write of this process, so
 * with a store shared by several processes (a PostgreSQL or Redis provider) the summaries of one process
 * lag the others' writes until the next sweep reloads them.
 */
/**
 * A plain copy of a stored value. Stores hand out `structuredClone` copies, whose nested objects belong to
 * another realm under jest's VM contexts; the file store's JSON admission then refuses them when they are
 * written back. A JSON round trip makes them plain objects of this realm (values are JSON by contract).
 */
function plain<V>(value: V): V {
  return JSON.parse(JSON.stringify(value)) as V;
}

export class RecordStore<T extends object> {
  private readonly cache = new Map<string, T>();

  /**
   * @param onConflict Called when a write loses its compare-and-set (another writer changed the record
   * between read and write); the governance registration logs 4529 (governance-version-conflict) from it.
   */
  constructor(
    readonly store: KeyedStore<T>,
    private readonly onConflict: (storeName: string) => void = () => undefined,
  ) {}

  async load(): Promise<void> {
    const records = await this.store.list();
    this.cache.clear();
    for (const record of records) this.cache.set(record.key, plain(record.value));
  }

  /** The cached records (summary use only). */
  values(): T[] {
    return [...this.cache.values()];
  }

  async get(key: string): Promise<(T & { version: number }) | undefined> {
    const record = await this.store.get(key);
    if (!record) {
      this.cache.delete(key);
      return undefined;
    }
    const value = plain(record.value);
    this.cache.set(key, value);
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
      if (result.current) this.cache.set(key, result.current.value);
      this.onConflict(this.store.name);
      throw new OperationError(
        'conflict',
        versionConflictCode,
        'The record changed since it was read; read it again and retry the command',
      );
    }
    const written = plain(result.record.value);
    this.cache.set(key, written);
    return { ...written, version: result.record.version };
  }

  /** Writes `value` only when the key is absent; answers false when it exists (seeding). */
  async seed(key: string, value: T): Promise<boolean> {
    const result = await this.store.put(key, value, { expectedVersion: 0 });
    if (result.written) this.cache.set(key, result.record.value);
    return result.written;
  }
}
