import {
  sharedStateFreshness,
  StoreMirror,
  type KeyedStore,
  type SharedStateFreshnessMetadata,
  type StoreScope,
} from '@corekit/abstractions';
import type { StoredIndexState } from './index-model';

/** Name of the store (`builder.openStore`) holding one state record per collection with recorded activity. */
export const indexStateStoreName = 'knowledge-indexes';

/**
 * Where the states live, decided at every start from what is installed:
 * - `store`: the engine store, one process writing (Memory, File): loaded at start, kept up to date by this
 *   process's writes;
 * - `shared`: a shared store provider and an index every replica shares (a durable provider): every write is a
 *   compare-and-set on the store, and the read copy is refreshed every `SharedStateRefreshMilliseconds`;
 * - `process-local`: a shared store provider but an index of this process (the in-process index): the states
 *   describe this process's index, so they stay in this process and are not written to the shared store.
 */
export type IndexStateMode = 'store' | 'shared' | 'process-local';

/**
 * The knowledge index states: the keyed store is the truth (except in `process-local` mode), and a read copy
 * serves the synchronous catalog and surface reads. Writes to one collection are serialized in this process
 * (read-modify-write under one chain) and are compare-and-set writes on the store, so writers in several
 * replicas never lose each other's counts.
 */
export class IndexStateStore {
  private readonly mirror: StoreMirror<StoredIndexState>;
  private readonly local = new Map<string, StoredIndexState>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private mode: IndexStateMode = 'store';
  private storeScope: StoreScope = 'process-local';

  constructor(
    store: KeyedStore<StoredIndexState>,
    refreshMs: number,
    /** Told about every failed write (the error is rethrown to the caller as well). */
    private readonly onFailure: (collectionId: string, error: unknown) => void = () => undefined,
    onRefreshFailure: (error: unknown) => void = () => undefined,
  ) {
    this.mirror = new StoreMirror(store, { refreshMs, onRefreshFailure });
  }

  /** Where the states are read from: `shared`, or the store's own scope, or `process-local`. */
  get scope(): StoreScope {
    return this.mode === 'store' ? this.storeScope : this.mode === 'shared' ? 'shared' : 'process-local';
  }

  /** Loads the states for `mode` (refreshing them on an interval when shared); `storeScope` for `store`. */
  async start(mode: IndexStateMode, storeScope: StoreScope): Promise<void> {
    this.mode = mode;
    this.storeScope = storeScope;
    this.mirror.stop();
    if (mode !== 'process-local') await this.mirror.start(mode === 'shared');
  }

  stop(): void {
    this.mirror.stop();
  }

  /** How the states follow other replicas' writes, and the staleness bound (`local` unless shared). */
  freshness(): SharedStateFreshnessMetadata {
    return sharedStateFreshness(this.mirror.freshness());
  }

  /** Reads the states again now (a shared copy otherwise catches up on its interval). */
  load(): Promise<void> {
    return this.mode === 'process-local' ? Promise.resolve() : this.mirror.load();
  }

  list(): readonly StoredIndexState[] {
    const values = this.mode === 'process-local' ? [...this.local.values()] : this.mirror.values().map(plain);
    return values.sort((a, b) => a.collectionId.localeCompare(b.collectionId));
  }

  find(collectionId: string): StoredIndexState | undefined {
    if (this.mode === 'process-local') return this.local.get(collectionId);
    const value = this.mirror.get(collectionId);
    return value === undefined ? undefined : plain(value);
  }

  /**
   * Reads the current state (or `initial()`), applies `change` and writes the result; answers the written
   * state. Calls for one collection run one after the other in this process.
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
        if (this.mode === 'process-local') {
          const updated = change(this.local.get(collectionId) ?? initial());
          this.local.set(collectionId, updated);
          return updated;
        }
        const written = await this.mirror.update(collectionId, (current) =>
          change(current === undefined ? initial() : plain(current)),
        );
        return plain(written.value);
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
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
