import { errorCode, storeErrorCodes, type KeyedStore, type RuntimeStoryEntry } from '@corekit/abstractions';

/** Story kinds kept across restarts: the runtime's and its parts' lifecycle, not routine job runs. */
export const lifecycleKinds: ReadonlySet<string> = new Set([
  'runtime',
  'module',
  'package',
  'restart',
  'failure',
  'hosted-service',
]);

/** One lifecycle entry of one run of the process (`runId` is new for each process). */
export interface LifecycleRecord {
  readonly runId: string;
  readonly entry: RuntimeStoryEntry;
}

/**
 * The lifecycle entries of the runtime story, kept on the engine's store so the console still shows the previous
 * run's start, failure and stop after a restart (the engine's own story starts empty in each process). Keys sort
 * by time (`{atUtc}~{runId}~{sequence}`); records expire after the retention; a full store drops the oldest.
 */
export class RuntimeLifecycleLog {
  constructor(
    private readonly store: KeyedStore<LifecycleRecord>,
    readonly runId: string,
    private readonly retentionMs: number,
  ) {}

  /** Keeps one story entry when it is a lifecycle entry (written once: a second write of it is a no-op). */
  async keep(entry: RuntimeStoryEntry): Promise<void> {
    if (!lifecycleKinds.has(entry.kind)) return;
    const key = `${entry.atUtc}~${this.runId}~${String(entry.sequence).padStart(9, '0')}`;
    const ttlMs = Math.max(1, Date.parse(entry.atUtc) + this.retentionMs - Date.now());
    const put = () => this.store.put(key, { runId: this.runId, entry }, { expectedVersion: 0, ttlMs });
    try {
      await put();
    } catch (error) {
      const [oldest] = errorCode(error) === storeErrorCodes.full ? await this.store.list({ limit: 1 }) : [];
      if (!oldest) throw error;
      await this.store.delete(oldest.key);
      await put();
    }
  }

  /** The newest `limit` lifecycle entries of every run, oldest first. */
  async read(limit: number): Promise<LifecycleRecord[]> {
    const records = await this.store.list();
    return records.slice(-limit).map((record) => record.value);
  }
}
