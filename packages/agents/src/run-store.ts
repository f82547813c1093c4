import {
  errorCode,
  sharedStateFreshness,
  type SharedStateFreshnessMetadata,
  storeErrorCodes,
  StoreMirror,
  type KeyedStore,
  type StoredRecord,
} from '@corekit/abstractions';
import type { StoredRun } from './run-model';

/** Name of the store (`builder.openStore`) holding every run: with the File provider, `agent-tool-runs.json`. */
export const runStoreName = 'agent-tool-runs';

/**
 * The run state: the keyed store is the truth (so waiting runs survive a restart with a durable provider,
 * and every replica on a shared provider sees the same runs), and this object keeps a read copy of it for
 * the synchronous catalog reads (a `StoreMirror`). The copy is loaded when the engine starts, updated after
 * every write this engine makes, and, on a shared provider, follows the provider's change feed (each announced
 * run read again); without a feed, or while it is down, the pack's refresh job reloads it every
 * `SharedStoreRefreshMilliseconds`, so writes of other replicas show within that bound.
 */
export class RunStore {
  private readonly mirror: StoreMirror<StoredRun>;

  /**
   * `refreshMs` is the pack's `SharedStoreRefreshMilliseconds`: the pack's refresh job calls `load` on that
   * interval (a job, so each reload is in the runtime story with the lease sweep); the mirror's own polling
   * at the same interval only runs while a feed is down.
   */
  constructor(
    private readonly store: KeyedStore<StoredRun>,
    refreshMs: number,
  ) {
    this.mirror = new StoreMirror(store, { refreshMs });
  }

  /**
   * Reloads the copy from the store; answers every stored run. A record this engine wrote while the reload
   * was reading is kept: a reload never goes back in time. While the copy follows a connected change feed
   * (`follow(true)`) it is already current: no whole read is made (the feed's catch-up and safety-net reads
   * keep it honest).
   */
  async load(): Promise<readonly StoredRun[]> {
    if (!this.mirror.feedConnected) await this.mirror.load();
    return this.list();
  }

  /**
   * With a shared store, keeps the copy following other replicas' writes through the provider's change feed
   * (when it has one); loads the copy either way. Called when the engine starts; `stopFollowing` on stop.
   */
  async follow(shared: boolean): Promise<void> {
    await this.mirror.start(shared);
  }

  stopFollowing(): void {
    this.mirror.stop();
  }

  /** How the copy follows other replicas, and its staleness bound (the refresh job's interval without a feed). */
  freshness(): SharedStateFreshnessMetadata {
    return sharedStateFreshness(this.mirror.freshness());
  }

  private remember(key: string, record: StoredRecord<StoredRun> | undefined): void {
    if (record) this.mirror.remember(record);
    else this.mirror.forget(key);
  }

  list(): readonly StoredRun[] {
    return this.mirror
      .values()
      .sort((a, b) => (a.observedAtUtc < b.observedAtUtc ? 1 : a.observedAtUtc > b.observedAtUtc ? -1 : 0));
  }

  find(runId: string): StoredRecord<StoredRun> | undefined {
    return this.mirror.record(runId);
  }

  /** Reads one run from the store itself (the truth), refreshing the copy. */
  async read(runId: string): Promise<StoredRecord<StoredRun> | undefined> {
    const stored = await this.store.get(runId);
    const record = stored ? plain(stored) : undefined;
    this.remember(runId, record);
    return record;
  }

  /**
   * Compare-and-set write: `expectedVersion` 0 creates, otherwise the version read before. Answers the new
   * record, or null when another request changed the run first. A full store drops its oldest finished run
   * once and tries again.
   */
  async write(run: StoredRun, expectedVersion: number): Promise<StoredRecord<StoredRun> | null> {
    let result;
    try {
      result = await this.store.put(run.runId, run, { expectedVersion });
    } catch (error) {
      if (errorCode(error) !== storeErrorCodes.full || !(await this.dropOldestFinished())) {
        throw error;
      }
      result = await this.store.put(run.runId, run, { expectedVersion });
    }
    if (!result.written) {
      this.remember(run.runId, result.current ? plain(result.current) : undefined);
      return null;
    }
    const written = plain(result.record);
    this.remember(run.runId, written);
    return written;
  }

  private async dropOldestFinished(): Promise<boolean> {
    const oldest = this.list()
      .filter((run) => run.phase === 'finished')
      .at(-1);
    if (!oldest) return false;
    const record = this.mirror.record(oldest.runId);
    const deleted = await this.store.delete(oldest.runId, { expectedVersion: record?.version });
    if (deleted) this.remember(oldest.runId, undefined);
    return deleted;
  }
}

/**
 * A record re-created as plain JSON of this realm: stores may hand back structured clones whose objects carry
 * another realm's prototype (under test runners), which a later put would refuse as not plain.
 */
function plain<T>(record: StoredRecord<T>): StoredRecord<T> {
  return JSON.parse(JSON.stringify(record)) as StoredRecord<T>;
}
