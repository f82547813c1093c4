import type { CdcCaptureDescriptor, KeyedStore } from '@corekit/abstractions';
import type {
  CaptureOutcome,
  CompletenessState,
  CdcCaptureRuntimeObservation,
  CdcCaptureRuntimeState,
  failureKinds,
} from './data-model';
import type { ExecutionBinding } from './execution-binding';
import {
  admitReporter,
  emptyCoordination,
  projectCoordination,
  type CoordinationRecord,
  type LeasePolicy,
} from './reporter-coordination';

type FailureKind = (typeof failureKinds)[number];
type AcknowledgementState = 'none' | 'acknowledged' | 'pending' | 'failed';

/** What the store keeps per capture (`data-cdc-capture-states`); the published state is projected from it. */
export interface CaptureRecord {
  readonly lastOutcome: CaptureOutcome | null;
  readonly lastObservedAtUtc: string | null;
  readonly checkpoint: string | null;
  readonly changeId: string | null;
  readonly error: string | null;
  readonly latestCapturedChangeCount: number;
  readonly totalCapturedChangeCount: number;
  readonly latestProducedMessageCount: number;
  readonly totalProducedMessageCount: number;
  readonly lagSeconds: number | null;
  readonly acknowledgement: {
    readonly state: AcknowledgementState;
    readonly acknowledgedAtUtc: string | null;
    readonly durableCheckpoint: string | null;
    readonly pendingCheckpoint: string | null;
    readonly pendingChangeId: string | null;
  };
  readonly acknowledgerServiceType: string | null;
  readonly failureKind: FailureKind | null;
  readonly outboxDispatchState: string | null;
  /** Absent in records written before the field existed (read as unknown). */
  readonly completeness?: { readonly state: CompletenessState; readonly reason: string | null } | null;
  readonly reporterId: string | null;
  readonly edgeProvenance: { readonly edgeNodeId: string; readonly observedAtUtc: string } | null;
  readonly metadata: Readonly<Record<string, string | number | boolean>>;
  readonly coordination: CoordinationRecord;
}

export const emptyRecord: CaptureRecord = {
  lastOutcome: null,
  lastObservedAtUtc: null,
  checkpoint: null,
  changeId: null,
  error: null,
  latestCapturedChangeCount: 0,
  totalCapturedChangeCount: 0,
  latestProducedMessageCount: 0,
  totalProducedMessageCount: 0,
  lagSeconds: null,
  acknowledgement: {
    state: 'none',
    acknowledgedAtUtc: null,
    durableCheckpoint: null,
    pendingCheckpoint: null,
    pendingChangeId: null,
  },
  acknowledgerServiceType: null,
  failureKind: null,
  outboxDispatchState: null,
  completeness: null,
  reporterId: null,
  edgeProvenance: null,
  metadata: {},
  coordination: emptyCoordination,
};

/** Folds one accepted observation into a record. */
export function applyObservation(
  record: CaptureRecord,
  observation: CdcCaptureRuntimeObservation,
  arrivedAtUtc: string,
): CaptureRecord {
  const observedAtUtc = observation.observedAtUtc
    ? new Date(observation.observedAtUtc).toISOString()
    : arrivedAtUtc;
  const acknowledgement = observation.acknowledgement;
  const checkpoint = observation.checkpoint !== undefined ? observation.checkpoint : record.checkpoint;
  return {
    ...record,
    lastOutcome: observation.outcome,
    lastObservedAtUtc: observedAtUtc,
    checkpoint,
    changeId: observation.changeId !== undefined ? observation.changeId : record.changeId,
    error: observation.outcome === 'failed' ? (observation.error ?? 'failed (no detail reported)') : null,
    latestCapturedChangeCount: observation.capturedChangeCount,
    totalCapturedChangeCount: record.totalCapturedChangeCount + observation.capturedChangeCount,
    latestProducedMessageCount: observation.producedMessageCount,
    totalProducedMessageCount: record.totalProducedMessageCount + observation.producedMessageCount,
    lagSeconds: observation.lagSeconds !== undefined ? observation.lagSeconds : record.lagSeconds,
    acknowledgement: acknowledgementAfter(record, observation, checkpoint, observedAtUtc),
    acknowledgerServiceType: acknowledgement?.acknowledgerServiceType ?? record.acknowledgerServiceType,
    failureKind:
      observation.outcome === 'failed'
        ? (observation.failureKind ?? 'reported')
        : (observation.failureKind ?? null),
    outboxDispatchState: observation.outboxDispatchState ?? record.outboxDispatchState,
    completeness: observation.completeness
      ? { state: observation.completeness.state, reason: observation.completeness.reason ?? null }
      : (record.completeness ?? null),
    reporterId: observation.reporterId,
    edgeProvenance: observation.edgeNodeId
      ? { edgeNodeId: observation.edgeNodeId, observedAtUtc }
      : record.edgeProvenance,
    metadata: observation.metadata ?? record.metadata,
  };
}

/**
 * The acknowledgement after an observation: acknowledged moves the durable checkpoint; pending or failed keeps
 * it and shows the pending checkpoint and change id; an observation without acknowledgement keeps the previous
 * posture, and a checkpoint it reports counts as durable (the runner vouches for it).
 */
function acknowledgementAfter(
  record: CaptureRecord,
  observation: CdcCaptureRuntimeObservation,
  checkpoint: string | null,
  observedAtUtc: string,
): CaptureRecord['acknowledgement'] {
  const acknowledgement = observation.acknowledgement;
  if (!acknowledgement) {
    return observation.checkpoint === undefined
      ? record.acknowledgement
      : { ...record.acknowledgement, durableCheckpoint: checkpoint };
  }
  if (acknowledgement.state === 'acknowledged') {
    return {
      state: 'acknowledged',
      acknowledgedAtUtc: observedAtUtc,
      durableCheckpoint: checkpoint,
      pendingCheckpoint: null,
      pendingChangeId: null,
    };
  }
  return {
    state: acknowledgement.state,
    acknowledgedAtUtc: record.acknowledgement.acknowledgedAtUtc,
    durableCheckpoint: record.acknowledgement.durableCheckpoint,
    pendingCheckpoint: acknowledgement.pendingCheckpoint ?? null,
    pendingChangeId: acknowledgement.pendingChangeId ?? null,
  };
}

/** One report's outcome: applied, or refused for one or more reporters (nothing applied then). */
export type ReportOutcome =
  | {
      readonly applied: true;
      readonly takeovers: ReadonlyArray<{ cdcCaptureId: string; previousReporterId: string }>;
    }
  | { readonly applied: false; readonly rejections: ReadonlyArray<{ cdcCaptureId: string; reason: string }> };

/**
 * The runtime-state records of every capture, kept in a keyed store (the truth) with a read cache for the
 * synchronous catalog reads. Writes go through compare-and-set, so a shared store serializes reporters of
 * several processes; the cache of another process catches up on its next write or `load()`.
 */
export class CaptureStateBook {
  private readonly cache = new Map<string, CaptureRecord>();

  constructor(
    private readonly store: KeyedStore<CaptureRecord>,
    private readonly now: () => number,
  ) {}

  async load(): Promise<void> {
    for (const stored of await this.store.list()) this.cache.set(stored.key, stored.value);
  }

  record(captureId: string): CaptureRecord {
    return this.cache.get(captureId) ?? emptyRecord;
  }

  /** Read-modify-write of one record under compare-and-set (retries on a concurrent write). */
  async update(captureId: string, change: (record: CaptureRecord) => CaptureRecord): Promise<CaptureRecord> {
    for (let attempt = 0; ; attempt++) {
      const current = await this.store.get(captureId);
      const next = change(current?.value ?? emptyRecord);
      const result = await this.store.put(captureId, next, { expectedVersion: current?.version ?? 0 });
      if (result.written) {
        this.cache.set(captureId, next);
        return next;
      }
      if (attempt >= 20) throw new Error(`capture state ${captureId} kept changing under concurrent writes`);
    }
  }

  /**
   * Applies a report whose ownership was already checked: admits every reporter first; when one is refused the
   * refusals are stored (visible in reporterCoordination) and nothing else is applied.
   */
  async applyReport(
    observations: readonly CdcCaptureRuntimeObservation[],
    policy: LeasePolicy,
  ): Promise<ReportOutcome> {
    const now = this.now();
    const rejections: Array<{ cdcCaptureId: string; reason: string }> = [];
    const admitted = new Map<string, CoordinationRecord>();
    for (const observation of observations) {
      const base =
        admitted.get(observation.cdcCaptureId) ?? this.record(observation.cdcCaptureId).coordination;
      const result = admitReporter(base, observation.reporterId, policy, now, observation.edgeNodeId ?? null);
      if (!result.accepted)
        rejections.push({ cdcCaptureId: observation.cdcCaptureId, reason: result.reason });
      admitted.set(observation.cdcCaptureId, result.next);
    }
    if (rejections.length > 0) {
      for (const rejection of rejections) {
        await this.update(rejection.cdcCaptureId, (record) => {
          const result = admitReporter(
            record.coordination,
            observations.find((item) => item.cdcCaptureId === rejection.cdcCaptureId)!.reporterId,
            policy,
            now,
            null,
          );
          return { ...record, coordination: result.next };
        });
      }
      return { applied: false, rejections };
    }
    const takeovers: Array<{ cdcCaptureId: string; previousReporterId: string }> = [];
    for (const observation of observations) {
      const before = this.record(observation.cdcCaptureId).coordination.lastTakeoverObservedAtUtc;
      await this.observe(observation, policy, now);
      const after = this.record(observation.cdcCaptureId).coordination;
      if (after.lastTakeoverObservedAtUtc !== before && after.previousReporterId !== null)
        takeovers.push({
          cdcCaptureId: observation.cdcCaptureId,
          previousReporterId: after.previousReporterId,
        });
    }
    return { applied: true, takeovers };
  }

  /**
   * Admits the reporter and applies one observation in a single compare-and-set write. Answers false (and
   * writes nothing) when another reporter holds a live lease and the policy rejects conflicting reporters.
   */
  async observe(
    observation: CdcCaptureRuntimeObservation,
    policy: LeasePolicy,
    now: number = this.now(),
  ): Promise<boolean> {
    let accepted = true;
    await this.update(observation.cdcCaptureId, (record) => {
      const result = admitReporter(
        record.coordination,
        observation.reporterId,
        policy,
        now,
        observation.edgeNodeId ?? null,
      );
      accepted = result.accepted;
      if (!result.accepted) return record;
      return {
        ...applyObservation(record, observation, new Date(now).toISOString()),
        coordination: result.next,
      };
    });
    return accepted;
  }
}

/** The published runtime state of one declared capture (before its first report every count is zero). */
export function projectState(
  capture: CdcCaptureDescriptor,
  binding: ExecutionBinding,
  record: CaptureRecord,
  now: number,
  staleAfterSeconds: number,
): CdcCaptureRuntimeState {
  const ageSeconds =
    record.lastObservedAtUtc === null
      ? null
      : Math.max(0, Math.round((now - Date.parse(record.lastObservedAtUtc)) / 1000));
  const active = projectCoordination(record.coordination, now).reporterParticipants.find(
    (participant) => participant.reporterId === record.reporterId && participant.leaseExpiresAtUtc !== null,
  );
  const lease = record.coordination.participants.find(
    (participant) => participant.reporterId === record.reporterId && participant.leaseExpiresAtUtc !== null,
  );
  return {
    cdcCaptureId: capture.id,
    sourceModuleId: capture.sourceModuleId,
    provider: capture.provider,
    sourceId: capture.sourceId,
    outboxId: capture.outboxId,
    mode: capture.mode,
    eventFormat: capture.eventFormat,
    resourceIds: capture.resourceIds,
    lastOutcome: record.lastOutcome,
    lastObservedAtUtc: record.lastObservedAtUtc,
    checkpoint: record.checkpoint,
    changeId: record.changeId,
    error: record.error,
    latestCapturedChangeCount: record.latestCapturedChangeCount,
    totalCapturedChangeCount: record.totalCapturedChangeCount,
    latestProducedMessageCount: record.latestProducedMessageCount,
    totalProducedMessageCount: record.totalProducedMessageCount,
    executionBinding: binding,
    freshness: {
      state: ageSeconds === null ? 'never-observed' : ageSeconds > staleAfterSeconds ? 'stale' : 'fresh',
      ageSeconds,
      staleAfterSeconds,
    },
    lag: { lagSeconds: record.lagSeconds },
    publication: {
      outboxId: capture.outboxId,
      state:
        record.lastOutcome === null
          ? 'none'
          : record.latestProducedMessageCount > 0
            ? 'staged'
            : 'not-staged',
      latestProducedMessageCount: record.latestProducedMessageCount,
    },
    acknowledgement: record.acknowledgement,
    acknowledgerServiceType: record.acknowledgerServiceType,
    failureKind: record.failureKind,
    outboxDispatchState: record.outboxDispatchState,
    completeness: record.completeness ?? { state: 'unknown', reason: null },
    reporterId: record.reporterId,
    reporterLease: lease
      ? {
          reporterId: lease.reporterId,
          expiresAtUtc: lease.leaseExpiresAtUtc!,
          expired: active?.state !== 'active',
        }
      : null,
    edgeProvenance: record.edgeProvenance,
    reporterCoordination: projectCoordination(record.coordination, now),
    metadata: { ...record.metadata },
  };
}
