import {
  sharedStateFreshness,
  StoreMirror,
  type SharedStateFreshnessMetadata,
  type CdcCaptureDescriptor,
  type KeyedStore,
  type StoreScope,
} from '@corekit/abstractions';
import type {
  CaptureGap,
  CaptureOutcome,
  RestartRequest,
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
  /** Absent in records written before the field existed. */
  readonly retention?: { readonly bytes: number | null; readonly seconds: number | null } | null;
  /** The open gap; absent in records written before the field existed. */
  readonly gap?: CaptureGap | null;
  readonly lastResolvedGap?: CaptureGap | null;
  readonly restartRequest?: RestartRequest | null;
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
    retention: observation.retention ?? record.retention ?? null,
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
 * The runtime-state records of every capture, kept in a keyed store (the truth) with a read copy for the
 * synchronous catalog reads. Writes go through compare-and-set, so a shared store serializes reporters of
 * several processes; with a shared store the copy follows the store's change feed (each announced key read
 * again; the whole store every `SharedStateRefreshMilliseconds` while the feed is off or down), and every record
 * this process writes or reads is in it at once. Decisions (admitting a reporter, the checkpoint
 * a pump reads from) read the store itself.
 */
export class CaptureStateBook {
  private readonly mirror: StoreMirror<CaptureRecord>;
  private storeScope: StoreScope = 'process-local';

  constructor(
    private readonly store: KeyedStore<CaptureRecord>,
    private readonly now: () => number,
    refreshMs = 1000,
    onRefreshFailure: (error: unknown) => void = () => undefined,
  ) {
    this.mirror = new StoreMirror(store, { refreshMs, onRefreshFailure });
  }

  /** Who reads the states: the scope of the store provider installed (set at start). */
  /** How the copy follows the other replicas' reports, and its staleness bound. */
  freshness(): SharedStateFreshnessMetadata {
    return sharedStateFreshness(this.mirror.freshness());
  }

  get scope(): StoreScope {
    return this.storeScope;
  }

  /** Loads the copy; with a shared store, refreshes it on its interval until `stop()`. */
  start(scope: StoreScope): Promise<void> {
    this.storeScope = scope;
    return this.mirror.start(scope === 'shared');
  }

  stop(): void {
    this.mirror.stop();
  }

  load(): Promise<void> {
    return this.mirror.load();
  }

  /** The record as last read or written (synchronous reads: catalogs, surfaces). */
  record(captureId: string): CaptureRecord {
    return this.mirror.get(captureId) ?? emptyRecord;
  }

  /** The record as the store holds it now (and the copy is updated with it). */
  async read(captureId: string): Promise<CaptureRecord> {
    const stored = await this.store.get(captureId);
    if (stored) this.mirror.remember(stored);
    return stored?.value ?? emptyRecord;
  }

  /** Read-modify-write of one record under compare-and-set (retries on a concurrent write). */
  async update(captureId: string, change: (record: CaptureRecord) => CaptureRecord): Promise<CaptureRecord> {
    const written = await this.mirror.update(captureId, (current) => change(current ?? emptyRecord));
    return written.value;
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
        admitted.get(observation.cdcCaptureId) ?? (await this.read(observation.cdcCaptureId)).coordination;
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
      // Admission is decided again in the compare-and-set write: a replica that took the capture over since
      // the check above wins, and this report is refused from here on (observations before it stay applied).
      const refusal = await this.admitAndApply(observation, policy, now);
      if (refusal !== null) {
        return { applied: false, rejections: [{ cdcCaptureId: observation.cdcCaptureId, reason: refusal }] };
      }
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
   * Takes (or renews) the capture's reporter lease for `reporterId` before any work, in one compare-and-set
   * write: a pump claims before it stages, so of several replicas whose pumps see a lapsed lease one takes the
   * capture over and the others stay standby. Refused, whatever the policy, while another reporter's lease is
   * live; a refusal writes nothing.
   */
  async claim(
    captureId: string,
    reporterId: string,
    policy: LeasePolicy,
    now = this.now(),
  ): Promise<boolean> {
    const exclusive: LeasePolicy = { ...policy, rejectConflictingReporterIds: true };
    if (
      !admitReporter((await this.read(captureId)).coordination, reporterId, exclusive, now, null).accepted
    ) {
      return false;
    }
    let claimed = false;
    await this.update(captureId, (record) => {
      const result = admitReporter(record.coordination, reporterId, exclusive, now, null);
      claimed = result.accepted;
      return result.accepted ? { ...record, coordination: result.next } : record;
    });
    return claimed;
  }

  /**
   * Admits the reporter and applies one observation in a single compare-and-set write. Answers false when
   * another reporter holds a live lease and the policy rejects conflicting reporters: then only the refusal is
   * written (a rejected participant), nothing of the observation.
   */
  async observe(
    observation: CdcCaptureRuntimeObservation,
    policy: LeasePolicy,
    now: number = this.now(),
  ): Promise<boolean> {
    return (await this.admitAndApply(observation, policy, now)) === null;
  }

  /** `observe`, answering the refusal's reason (null when the observation was applied). */
  private async admitAndApply(
    observation: CdcCaptureRuntimeObservation,
    policy: LeasePolicy,
    now: number,
  ): Promise<string | null> {
    let refusal: string | null = null;
    await this.update(observation.cdcCaptureId, (record) => {
      const result = admitReporter(
        record.coordination,
        observation.reporterId,
        policy,
        now,
        observation.edgeNodeId ?? null,
      );
      refusal = result.accepted ? null : result.reason;
      if (!result.accepted) return { ...record, coordination: result.next };
      return {
        ...applyObservation(record, observation, new Date(now).toISOString()),
        coordination: result.next,
      };
    });
    return refusal;
  }
}

/** The published runtime state of one declared capture (before its first report every count is zero). */
export function projectState(
  capture: CdcCaptureDescriptor,
  binding: ExecutionBinding,
  record: CaptureRecord,
  now: number,
  staleAfterSeconds: number,
  scope: StoreScope,
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
    lag: {
      lagSeconds: record.lagSeconds,
      retainedBytes: record.retention?.bytes ?? null,
      retainedSeconds: record.retention?.seconds ?? null,
    },
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
    gap: record.gap ?? null,
    lastResolvedGap: record.lastResolvedGap ?? null,
    restartRequest: record.restartRequest ?? null,
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
    scope,
  };
}
