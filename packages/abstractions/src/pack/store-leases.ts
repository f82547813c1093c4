import type { KeyedStore, StoredRecord } from './stores';

/*
 * Ownership of in-flight work shared by replicas: an owner and the time its hold ends, written with
 * compare-and-set (`expectedVersion`) so two replicas never both believe they hold one piece of work. The
 * holder renews the lease while it works; a holder that died stops renewing, and once the lease ran out one
 * other replica (the one whose compare-and-set wins) takes the work over.
 */

/** An owner's hold on a piece of work, as stored beside it. */
export interface WorkLease {
  /** Who holds the work: a replica instance id (`<host>:<pid>:<random>`). */
  readonly owner: string;
  /** Epoch milliseconds at which the hold ends unless renewed. */
  readonly expiresAtMs: number;
}

/** True while `lease` holds its work at `now` (epoch milliseconds): a null lease or a lapsed one does not. */
export function leaseIsLive(lease: WorkLease | null | undefined, now: number): boolean {
  return lease !== null && lease !== undefined && lease.owner !== '' && lease.expiresAtMs > now;
}

/** A hold for `owner` from `now` for `leaseMs` milliseconds. */
export function leaseFor(owner: string, now: number, leaseMs: number): WorkLease {
  return { owner, expiresAtMs: now + leaseMs };
}

/** A lease record of a {@link StoreLeases} store: the hold plus what the holder says it is doing. */
export interface LeaseRecord extends WorkLease {
  /** What the holder works on (a run id); answered to whoever is refused. */
  readonly workId: string;
  /** Epoch milliseconds at which this owner took the work. */
  readonly acquiredAtMs: number;
  /** The owner whose lapsed lease this holder took over; null when the work was free. */
  readonly takenOverFrom: string | null;
}

/** What `acquire` answers: the hold (with its version, for renew and release), or who holds the work. */
export type LeaseAcquisition =
  | { readonly acquired: true; readonly record: StoredRecord<LeaseRecord> }
  | { readonly acquired: false; readonly holder: LeaseRecord };

/**
 * Leases on named pieces of work in a keyed store (one record per key). With a shared store provider the
 * holds are seen by every replica; with Memory or File they only order the work of one process or node.
 * Every write is a compare-and-set, so of two replicas racing for a free or lapsed lease exactly one wins.
 */
export class StoreLeases {
  constructor(
    private readonly store: KeyedStore<LeaseRecord>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes the lease on `key` for `owner` when nobody holds it live (free, released, or lapsed: a takeover,
   * recorded in `takenOverFrom`). Answers the live holder otherwise, including a concurrent winner.
   */
  async acquire(key: string, owner: string, workId: string, leaseMs: number): Promise<LeaseAcquisition> {
    const current = await this.store.get(key);
    const now = this.now();
    if (current && leaseIsLive(current.value, now) && current.value.owner !== owner) {
      return { acquired: false, holder: current.value };
    }
    const mine = current?.value.owner === owner;
    const lapsedOwner = current && current.value.owner !== '' && !mine ? current.value.owner : null;
    const record: LeaseRecord = {
      ...leaseFor(owner, now, leaseMs),
      workId,
      acquiredAtMs: now,
      takenOverFrom: mine ? current.value.takenOverFrom : lapsedOwner,
    };
    const result = await this.store.put(key, record, { expectedVersion: current?.version ?? 0 });
    if (result.written) return { acquired: true, record: result.record };
    // Someone else wrote first: they hold it (or released it at once; the caller may try again later).
    return { acquired: false, holder: result.current?.value ?? record };
  }

  /**
   * Takes over the work of a lapsed lease exactly as it was read: written only while the key still holds
   * `lapsed` at its version and the lease is still not live, so of every replica that saw it lapse one wins,
   * and none once the winner has finished (released) the work. Null when someone else got there first.
   */
  async takeOver(
    lapsed: StoredRecord<LeaseRecord>,
    owner: string,
    leaseMs: number,
  ): Promise<StoredRecord<LeaseRecord> | null> {
    const now = this.now();
    if (leaseIsLive(lapsed.value, now)) return null;
    const result = await this.store.put(
      lapsed.key,
      {
        ...leaseFor(owner, now, leaseMs),
        workId: lapsed.value.workId,
        acquiredAtMs: now,
        takenOverFrom: lapsed.value.owner,
      },
      { expectedVersion: lapsed.version },
    );
    return result.written ? result.record : null;
  }

  /** Extends a held lease by `leaseMs` from now; null when the hold was lost (another owner took over). */
  async renew(held: StoredRecord<LeaseRecord>, leaseMs: number): Promise<StoredRecord<LeaseRecord> | null> {
    const result = await this.store.put(
      held.key,
      { ...held.value, expiresAtMs: this.now() + leaseMs },
      { expectedVersion: held.version },
    );
    return result.written ? result.record : null;
  }

  /** Ends a held lease (the work is done); false when it was lost meanwhile. */
  release(held: StoredRecord<LeaseRecord>): Promise<boolean> {
    return this.store.delete(held.key, { expectedVersion: held.version });
  }

  /** Every lease record, live or lapsed (a lapsed one is work whose owner stopped renewing). */
  list(): Promise<readonly StoredRecord<LeaseRecord>[]> {
    return this.store.list();
  }
}
