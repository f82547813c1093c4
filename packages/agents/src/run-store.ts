import { errorCode, storeErrorCodes, type KeyedStore, type StoredRecord } from '@corekit/abstractions';
import type { StoredRun } from './run-model';

/** Name of the store (`builder.openStore`) holding every run: with the File provider, `agent-tool-runs.json`. */
export const runStoreName = 'agent-tool-runs';

/**
 * The run state: the keyed store is the truth (so waiting runs survive a restart with a durable provider),
 * and this object keeps a read copy of it for the synchronous catalog reads. The copy is loaded when the
 * engine starts and updated after every successful write; it is per engine, never shared between engines.
 * It cannot see writes another process makes to a shared store.
 */
export class RunStore {
  private readonly copy = new Map<string, StoredRecord<StoredRun>>();

  constructor(private readonly store: KeyedStore<StoredRun>) {}

  /** Reloads the copy from the store; answers every stored run. */
  async load(): Promise<readonly StoredRun[]> {
    const records = (await this.store.list()).map(plain);
    this.copy.clear();
    for (const record of records) this.copy.set(record.key, record);
    return records.map((record) => record.value);
  }

  list(): readonly StoredRun[] {
    return [...this.copy.values()]
      .map((record) => record.value)
      .sort((a, b) => (a.observedAtUtc < b.observedAtUtc ? 1 : a.observedAtUtc > b.observedAtUtc ? -1 : 0));
  }

  find(runId: string): StoredRecord<StoredRun> | undefined {
    return this.copy.get(runId);
  }

  /** Reads one run from the store itself (the truth), refreshing the copy. */
  async read(runId: string): Promise<StoredRecord<StoredRun> | undefined> {
    const stored = await this.store.get(runId);
    const record = stored ? plain(stored) : undefined;
    if (record) this.copy.set(runId, record);
    else this.copy.delete(runId);
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
      if (result.current) this.copy.set(run.runId, plain(result.current));
      return null;
    }
    this.copy.set(run.runId, result.record);
    return result.record;
  }

  private async dropOldestFinished(): Promise<boolean> {
    const oldest = this.list()
      .filter((run) => run.phase === 'finished')
      .at(-1);
    if (!oldest) return false;
    const record = this.copy.get(oldest.runId);
    const deleted = await this.store.delete(oldest.runId, { expectedVersion: record?.version });
    if (deleted) this.copy.delete(oldest.runId);
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
