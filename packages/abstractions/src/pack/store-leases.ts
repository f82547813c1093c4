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

/** A {@link StoreLeases} hold kept renewed: the renewal plus the hold as last written. */
export interface KeptLease extends LeaseRenewal {
  /** The lease record as the last renewal wrote it (its version is the one `release` compares). */
  record(): StoredRecord<LeaseRecord>;
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

  /**
   * Keeps `held` renewed by `leaseMs` every `renewEveryMs` (default a third of the lease) while its work runs
   * ({@link keepLeaseRenewed}); `record()` is the hold as last written (release that one). Stop it when the work
   * ends, then ask `held()` before recording a result under the lease.
   */
  keep(
    held: StoredRecord<LeaseRecord>,
    leaseMs: number,
    options: { readonly renewEveryMs?: number; readonly onRenewalFailure?: (error: unknown) => void } = {},
  ): KeptLease {
    let current = held;
    const renewal = keepLeaseRenewed({
      expiresAtMs: held.value.expiresAtMs,
      renewEveryMs: options.renewEveryMs ?? Math.max(1, Math.floor(leaseMs / 3)),
      now: this.now,
      ...(options.onRenewalFailure ? { onRenewalFailure: options.onRenewalFailure } : {}),
      renew: async () => {
        const renewed = await this.renew(current, leaseMs);
        if (!renewed) return null;
        current = renewed;
        return renewed.value.expiresAtMs;
      },
    });
    return Object.assign(renewal, { record: () => current });
  }

  /** Every lease record, live or lapsed (a lapsed one is work whose owner stopped renewing). */
  list(): Promise<readonly StoredRecord<LeaseRecord>[]> {
    return this.store.list();
  }
}

/** Why a hold ended before its holder released it. */
export type LeaseLossReason =
  /** A renewal's compare-and-set failed: another owner took the work (or the record changed under the holder). */
  | 'taken-over'
  /** Renewals failed (the store unavailable) until the lease ran out: another replica may take the work now. */
  | 'expired';

/** Options of {@link keepLeaseRenewed}. */
export interface LeaseRenewalOptions {
  /** Epoch milliseconds at which the hold ends unless renewed (the expiry the acquisition wrote). */
  readonly expiresAtMs: number;
  /** Milliseconds between two renewals; a third of the lease is a good choice (two can fail before it lapses). */
  readonly renewEveryMs: number;
  /**
   * Extends the hold (one compare-and-set write on the version the previous write answered); answers the new
   * expiry in epoch milliseconds, or null when the hold was lost. Throwing means "could not tell" (the store
   * unavailable): renewal goes on until the lease ran out.
   */
  renew(): Promise<number | null>;
  /** The source of time the expiry is judged with (epoch milliseconds). Default Date.now. */
  readonly now?: () => number;
  /** Told about a renewal that threw (the hold still stands until `expiresAtMs`). */
  readonly onRenewalFailure?: (error: unknown) => void;
}

/**
 * A hold kept renewed while its holder works ({@link keepLeaseRenewed}). `signal` is aborted the moment the
 * hold is known lost, so work in flight can stop; whatever the work did, its holder asks `held()` before it
 * records a result under the lease, and records nothing when the answer is false: the work belongs to whoever
 * took it over, who records its own outcome.
 */
export interface LeaseRenewal {
  /** Aborted (reason: a `LeaseLostError`) when the hold is lost. */
  readonly signal: AbortSignal;
  /** True while the hold stands: not lost, and not past its expiry at `now`. */
  held(): boolean;
  /** Why the hold was lost; null while it stands. */
  readonly lostReason: LeaseLossReason | null;
  /** Stops renewing (the work ended) and waits for a renewal in flight; the hold itself is not released. */
  stop(): Promise<void>;
}

/** The reason a {@link LeaseRenewal}'s signal is aborted with. */
export class LeaseLostError extends Error {
  readonly code = 'LEASE_LOST';
  constructor(readonly reason: LeaseLossReason) {
    super(
      reason === 'taken-over'
        ? 'The lease was taken over by another owner while the work ran'
        : 'The lease ran out while renewals failed (store unavailable); another owner may take the work',
    );
    this.name = 'LeaseLostError';
  }
}

/**
 * Renews a held lease every `renewEveryMs` until `stop()`, one renewal at a time, so a holder whose work
 * outlasts the lease keeps it (a slow send, a long reindex). A renewal answering null loses the hold at once
 * (`taken-over`); renewals that throw keep it until its expiry passes (`expired`). Either way `signal` aborts and
 * `held()` turns false. The timer does not keep the process alive. The one renewal loop every lease user shares.
 */
export function keepLeaseRenewed(options: LeaseRenewalOptions): LeaseRenewal {
  const now = options.now ?? Date.now;
  const controller = new AbortController();
  let expiresAtMs = options.expiresAtMs;
  let lostReason: LeaseLossReason | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: Promise<void> = Promise.resolve();

  const lose = (reason: LeaseLossReason) => {
    if (lostReason !== null) return;
    lostReason = reason;
    controller.abort(new LeaseLostError(reason));
  };
  const renewOnce = async () => {
    try {
      const renewed = await options.renew();
      if (renewed === null) lose('taken-over');
      else expiresAtMs = renewed;
    } catch (error) {
      options.onRenewalFailure?.(error);
      if (now() >= expiresAtMs) lose('expired');
    }
  };
  const schedule = () => {
    if (stopped || lostReason !== null) return;
    timer = setTimeout(() => {
      timer = null;
      inFlight = renewOnce().finally(schedule);
    }, options.renewEveryMs);
    timer.unref?.();
  };
  schedule();

  return {
    signal: controller.signal,
    held: () => {
      if (lostReason === null && now() >= expiresAtMs) lose('expired');
      return lostReason === null;
    },
    get lostReason() {
      return lostReason;
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await inFlight;
    },
  };
}
