import {
  leaseIsLive,
  StoreLeases,
  StoreMirror,
  type KeptLease,
  type KeyedStore,
  type LeaseRecord,
  type StoredRecord,
} from '@corekit/abstractions';

/** Name of the store holding one lease per collection while a replica indexes it. */
export const reindexLeaseStoreName = 'knowledge-index-leases';

/** What `acquire` answers: the run may go (and whose lapsed run it takes over), or who runs it now. */
export type ReindexLeaseAcquisition =
  | {
      readonly acquired: true;
      readonly takenOverFrom: string | null;
      /** Aborted once the lease is lost while the run holds it (never, without a shared index). */
      readonly signal: AbortSignal;
    }
  | { readonly acquired: false; readonly holder: LeaseRecord };

/** Timings of the reindex leases (`Engine:Retrieval:ReindexLeaseSeconds`, `SharedStateRefreshMilliseconds`). */
export interface ReindexLeaseTimings {
  readonly leaseMs: number;
  readonly refreshMs: number;
}

/**
 * Ownership of indexing runs across replicas, used when the store provider is shared and the index is too: a
 * run holds a lease on its collection (owner = this replica, renewed every third of the lease while it runs by
 * `StoreLeases.keep`, released when it ends), so a run on another replica answers `already-running` with this
 * run's id. A run whose lease is lost meanwhile (a renewal refused, or renewals failing until it ran out) sees
 * its signal aborted and `holds()` false: it records no result (the replica that takes over runs again). A replica
 * that dies mid-run stops renewing; once its lease ran out, the first replica whose compare-and-set wins runs
 * the collection again (trigger `replica-takeover`), once: that run ends by releasing the lease. Without a
 * shared index every run is this process's own and no lease is written.
 */
export class ReindexLeases {
  private readonly leases: StoreLeases;
  private readonly mirror: StoreMirror<LeaseRecord>;
  private readonly held = new Map<string, KeptLease>();
  private shared = false;
  /** Collections whose lapsed lease this process is taking over now. */
  private readonly takingOver = new Set<string>();
  private watchdog: ReturnType<typeof setInterval> | null = null;

  constructor(
    /** This replica: the engine instance id (`builder.instanceId`). */
    readonly owner: string,
    store: KeyedStore<LeaseRecord>,
    private readonly timings: ReindexLeaseTimings,
    private readonly now: () => number,
    private readonly onProblem: (message: string, error: unknown) => void,
  ) {
    this.leases = new StoreLeases(store, now);
    this.mirror = new StoreMirror(store, {
      refreshMs: timings.refreshMs,
      onRefreshFailure: (error) => onProblem('The reindex leases could not be read', error),
    });
  }

  /**
   * Starts for this engine run: with `shared`, reads the leases every `refreshMs` and calls `takeOver` for
   * each collection whose holder's lease ran out (another replica's, or this process's previous run's).
   */
  async start(
    shared: boolean,
    takeOver: (collectionId: string, lapsed: LeaseRecord) => Promise<unknown>,
  ): Promise<void> {
    this.stop();
    this.shared = shared;
    if (!shared) return;
    await this.mirror
      .start(true)
      .catch((error: unknown) => this.onProblem('The reindex leases could not be read', error));
    this.watchdog = setInterval(() => {
      const now = this.now();
      for (const record of this.mirror.records()) {
        if (this.held.has(record.key) || this.takingOver.has(record.key) || leaseIsLive(record.value, now))
          continue;
        this.takingOver.add(record.key);
        void this.takeOverLapsed(record, takeOver).finally(() => this.takingOver.delete(record.key));
      }
    }, this.timings.refreshMs);
    this.watchdog.unref?.();
  }

  stop(): void {
    this.mirror.stop();
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }

  /** The live lease of another replica on `collectionId` (as last read), or null. */
  heldElsewhere(collectionId: string): LeaseRecord | null {
    if (!this.shared) return null;
    const lease = this.mirror.get(collectionId);
    return lease && lease.owner !== this.owner && leaseIsLive(lease, this.now()) ? lease : null;
  }

  /**
   * Takes the collection's lease for `runId` (always granted without a shared index); a lease this process
   * took over for the run is its lease already.
   */
  async acquire(collectionId: string, runId: string): Promise<ReindexLeaseAcquisition> {
    if (!this.shared) return { acquired: true, takenOverFrom: null, signal: neverAborted };
    const taken = this.held.get(collectionId);
    if (taken)
      return { acquired: true, takenOverFrom: taken.record().value.takenOverFrom, signal: taken.signal };
    const result = await this.leases.acquire(collectionId, this.owner, runId, this.timings.leaseMs);
    if (!result.acquired) return result;
    const kept = this.hold(result.record);
    return { acquired: true, takenOverFrom: result.record.value.takenOverFrom, signal: kept.signal };
  }

  /**
   * True while this process may record the run of `collectionId` as its own: always without a shared index,
   * else while its lease holds (not lost to another replica, not run out while renewals failed).
   */
  holds(collectionId: string): boolean {
    if (!this.shared) return true;
    return this.held.get(collectionId)?.held() ?? false;
  }

  /**
   * Takes over a lapsed lease as this process last read it (compare-and-set on its version: one replica
   * wins, and none after the winner released it), then runs the work; the lease is released afterwards
   * whatever happened to the run.
   */
  private async takeOverLapsed(
    lapsed: StoredRecord<LeaseRecord>,
    run: (collectionId: string, lapsed: LeaseRecord) => Promise<unknown>,
  ): Promise<void> {
    let taken: StoredRecord<LeaseRecord> | null;
    try {
      taken = await this.leases.takeOver(lapsed, this.owner, this.timings.leaseMs);
    } catch (error) {
      this.onProblem(`The lapsed reindex lease of ${lapsed.key} could not be taken over`, error);
      return;
    }
    if (!taken) return;
    this.hold(taken);
    try {
      await run(lapsed.key, lapsed.value);
    } finally {
      await this.release(lapsed.key);
    }
  }

  private hold(record: StoredRecord<LeaseRecord>): KeptLease {
    this.mirror.remember(record);
    const kept = this.leases.keep(record, this.timings.leaseMs, {
      onRenewalFailure: (error) =>
        this.onProblem(`The reindex lease of ${record.key} could not be renewed`, error),
    });
    kept.signal.addEventListener('abort', () =>
      this.onProblem(
        kept.lostReason === 'taken-over'
          ? `The reindex lease of ${record.key} was lost to another replica`
          : `The reindex lease of ${record.key} ran out while it could not be renewed`,
        null,
      ),
    );
    this.held.set(record.key, kept);
    return kept;
  }

  /** Ends the run's hold (the run finished, whatever its outcome). */
  async release(collectionId: string): Promise<void> {
    const held = this.held.get(collectionId);
    if (!held) return;
    this.held.delete(collectionId);
    await held.stop();
    if (held.lostReason === 'taken-over') return; // the record is another replica's now
    try {
      if (await this.leases.release(held.record())) this.mirror.forget(collectionId);
    } catch (error) {
      this.onProblem(`The reindex lease of ${collectionId} could not be released`, error);
    }
  }
}

/** The signal of a run that holds no lease (no shared index): never aborted. */
const neverAborted = new AbortController().signal;
