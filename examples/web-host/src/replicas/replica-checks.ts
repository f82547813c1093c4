import type { ReplicaSet, ReplicaStoreProvider } from '@corekit/testing/replica-harness';

/** What a check gets besides the replica set. */
export interface ReplicaCheckContext {
  /** The shared store of the set (a check that needs no second provider runs on one). */
  readonly provider: ReplicaStoreProvider;
  /** Replicas running when the check starts (indexes 0..count-1, all live). */
  readonly count: number;
  /** A name unique to this check, provider and count (run ids, keys, callback ids). */
  unique(name: string): string;
  /**
   * True on the table's last row of its last pass: the set is stopped right after, so that row may leave a
   * replica killed instead of paying a process start to replace it.
   */
  readonly last: boolean;
}

/**
 * One row of the replica table: a pack's check against N sample hosts on one shared store. A check leaves
 * every replica it started or killed running again (`set.restart(i)`), so the next row finds `count` live
 * replicas (only the last row of the last pass, `context.last`, may leave one killed). Packs add rows in their own `<pack>-replica-checks.ts` and list them in `replicaChecks`.
 */
export interface ReplicaCheck {
  readonly pack: string;
  readonly name: string;
  run(set: ReplicaSet, context: ReplicaCheckContext): Promise<void>;
}
