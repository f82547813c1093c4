import { leaseFor, leaseIsLive } from '@corekit/abstractions';
import type { StoredRun } from './run-model';

/** How this engine owns the runs it executes. */
export interface LeaseSettings {
  /** This engine instance (`builder.instanceId`: a restarted process is a new replica). */
  readonly replicaId: string;
  readonly leaseMs: number;
  readonly renewMs: number;
}

/** True while the run is executing or waiting to retry, the phases an owner holds under a lease. */
export function isInFlight(run: StoredRun): boolean {
  return run.phase === 'running' || run.phase === 'retry-wait';
}

/**
 * The run with its ownership for the phase it is in: owned by this replica until `now + leaseMs` while in
 * flight, no owner once it waits for approval or finished.
 */
export function withLease(run: StoredRun, lease: LeaseSettings, now: number): StoredRun {
  if (!isInFlight(run)) return { ...run, ownerReplicaId: null, leaseExpiresAtUtc: null };
  const held = leaseFor(lease.replicaId, now, lease.leaseMs);
  return { ...run, ownerReplicaId: held.owner, leaseExpiresAtUtc: new Date(held.expiresAtMs).toISOString() };
}

/** True when an in-flight run's lease is not live at `now` (`leaseIsLive`; a run stored without a lease counts as expired). */
export function leaseExpired(run: StoredRun, now: number): boolean {
  if (!isInFlight(run)) return false;
  const expiresAtMs = run.leaseExpiresAtUtc ? Date.parse(run.leaseExpiresAtUtc) : Number.NaN;
  return !leaseIsLive({ owner: run.ownerReplicaId ?? '', expiresAtMs }, now);
}

/** Ids of the runs this engine is executing right now (their owner is alive: a sweep skips them). */
export class LiveRuns {
  private readonly ids = new Set<string>();
  add(runId: string): void {
    this.ids.add(runId);
  }
  delete(runId: string): void {
    this.ids.delete(runId);
  }
  has(runId: string): boolean {
    return this.ids.has(runId);
  }
  get size(): number {
    return this.ids.size;
  }
}
