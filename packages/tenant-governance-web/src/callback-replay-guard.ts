import { OperationError, storeErrorCodes, type KeyedStore } from '@corekit/abstractions';

/** The store holding verified callback fingerprints (the engine's store provider: memory, file, shared...). */
export const callbackReplayStoreName = 'tenant-governance-web-callback-replay';

/** Stable codes of the replay guard. */
export const callbackReplayCodes = {
  replayed: 'CALLBACK_REPLAYED',
  cacheFull: 'CALLBACK_REPLAY_CACHE_FULL',
} as const;

interface ReplayEntry {
  readonly timestamp: number;
}

/**
 * Bounded replay protection of verified signed callbacks. A fingerprint (SHA-256 of key id, timestamp and
 * signature) is claimed with compare-and-set "only when absent" and kept for the retention (the store's
 * TTL), at most `cacheLimit` live fingerprints. A second claim inside the retention is a replay (409). When
 * the cache is full the callback is refused (503) rather than accepted unguarded: the sender retries, and a
 * larger limit or a shorter retention is the remedy. The store comes from `builder.openStore`, so a shared
 * provider (PostgreSQL, Redis) extends the guard across replicas; memory and file stores guard one process.
 */
export class CallbackReplayGuard {
  private rejectedTotal = 0;
  private claimedTotal = 0;

  constructor(
    private readonly store: KeyedStore<ReplayEntry>,
    private readonly retentionSeconds: number,
  ) {}

  /** Claims the fingerprint; throws OperationError `replay` (409) when it was seen inside the retention. */
  async claim(fingerprint: string, timestamp: number): Promise<void> {
    let result;
    try {
      result = await this.store.put(
        fingerprint,
        { timestamp },
        { expectedVersion: 0, ttlMs: this.retentionSeconds * 1000 },
      );
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === storeErrorCodes.full) {
        throw new OperationError(
          'unavailable',
          callbackReplayCodes.cacheFull,
          'The callback replay cache is full; retry later',
        );
      }
      throw error;
    }
    if (!result.written) {
      this.rejectedTotal += 1;
      throw new OperationError(
        'replay',
        callbackReplayCodes.replayed,
        'This signed callback was already received inside the replay window',
      );
    }
    this.claimedTotal += 1;
  }

  /** Gives a claim back (the callback failed before it was recorded, so the sender may retry it as is). */
  async release(fingerprint: string): Promise<void> {
    await this.store.delete(fingerprint).catch(() => false);
  }

  /** Live fingerprints (for the surface; never the fingerprints themselves). */
  async count(): Promise<number> {
    return this.store.count();
  }

  get counts(): { readonly claimed: number; readonly rejected: number } {
    return { claimed: this.claimedTotal, rejected: this.rejectedTotal };
  }
}
