import type { KeyedStore, StoredRecord } from '@corekit/abstractions';
import type { StoredIndexState } from './index-model';

/** Name of the store (`builder.openStore`) holding one state record per collection with recorded activity. */
export const indexStateStoreName = 'knowledge-indexes';

/**
 * The knowledge index states: the keyed store is the truth, and this object keeps a read copy for the
 * synchronous catalog and surface reads. The copy is loaded when the engine starts and updated after every
 * write. Writes to one collection are serialized in this process (read-modify-write under one chain); a
 * second process sharing the store is not coordinated with (its last write wins).
 */
export class IndexStateStore {
  private readonly copy = new Map<string, StoredIndexState>();
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: KeyedStore<StoredIndexState>,
    /** Told about every failed write (the error is rethrown to the caller as well). */
    private readonly onFailure: (collectionId: string, error: unknown) => void = () => undefined,
  ) {}

  async load(): Promise<void> {
    const records = await this.store.list();
    this.copy.clear();
    for (const record of records) this.copy.set(record.key, plain(record).value);
  }

  list(): readonly StoredIndexState[] {
    return [...this.copy.values()].sort((a, b) => a.collectionId.localeCompare(b.collectionId));
  }

  find(collectionId: string): StoredIndexState | undefined {
    return this.copy.get(collectionId);
  }

  /**
   * Reads the current state (or `initial()`), applies `change` and writes the result; answers the written
   * state. Calls for one collection run one after the other.
   */
  update(
    collectionId: string,
    initial: () => StoredIndexState,
    change: (state: StoredIndexState) => StoredIndexState,
  ): Promise<StoredIndexState> {
    const previous = this.chains.get(collectionId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const stored = await this.store.get(collectionId);
        const current = stored ? plain(stored).value : initial();
        const updated = change(current);
        const result = await this.store.put(collectionId, updated);
        const written = result.written ? plain(result.record).value : updated;
        this.copy.set(collectionId, written);
        return written;
      })
      .catch((error: unknown) => {
        this.onFailure(collectionId, error);
        throw error;
      });
    this.chains.set(collectionId, next);
    void next
      .finally(() => {
        if (this.chains.get(collectionId) === next) this.chains.delete(collectionId);
      })
      .catch(() => undefined);
    return next;
  }
}

/** Stores may hand back structured clones of another realm: re-create them as plain JSON. */
function plain<T>(record: StoredRecord<T>): StoredRecord<T> {
  return JSON.parse(JSON.stringify(record)) as StoredRecord<T>;
}
