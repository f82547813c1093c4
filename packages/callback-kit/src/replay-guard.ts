import { createHash } from 'node:crypto';
import { storeErrorCodes, type KeyedStore } from '@corekit/abstractions';

/** One replay-cache record: only the time it was first seen (the key is a hash, never the raw fingerprint). */
export interface ReplayEntry {
  readonly firstSeenAtUtc: string;
}

/**
 * Bounded replay protection over a store from `builder.openStore`: a fingerprint (signature + timestamp,
 * token, topic + message id) is claimed once per retention window. Entries expire after the retention
 * (store TTL); at the cache limit the oldest tenth is evicted, so the cache never grows past the limit and
 * a replay older than the evicted entries is no longer recognized. The cache is where the engine's store
 * provider keeps it: per process (Memory), per node (File), or one for every replica on a shared provider
 * (PostgreSQL, Redis), where a callback accepted on one replica is a replay on another.
 */
export class ReplayGuard {
  constructor(
    private readonly store: KeyedStore<ReplayEntry>,
    readonly retentionSeconds: number,
    readonly cacheLimit: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Claims the fingerprint: `fresh` the first time inside the window, `replay` after. */
  async claim(parts: readonly string[]): Promise<'fresh' | 'replay'> {
    const key = createHash('sha256').update(parts.join('\n')).digest('hex');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const result = await this.store.put(
          key,
          { firstSeenAtUtc: this.now().toISOString() },
          { expectedVersion: 0, ttlMs: this.retentionSeconds * 1000 },
        );
        return result.written ? 'fresh' : 'replay';
      } catch (error) {
        if ((error as { code?: unknown })?.code !== storeErrorCodes.full || attempt > 0) throw error;
        await this.evictOldest();
      }
    }
    return 'replay';
  }

  /** Number of live fingerprints. */
  count(): Promise<number> {
    return this.store.count();
  }

  private async evictOldest(): Promise<void> {
    const records = [...(await this.store.list())].sort((a, b) =>
      a.value.firstSeenAtUtc < b.value.firstSeenAtUtc ? -1 : 1,
    );
    const drop = Math.max(1, Math.ceil(records.length / 10));
    for (const record of records.slice(0, drop)) await this.store.delete(record.key);
  }
}
