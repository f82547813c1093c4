import type { CoordinationIssue, ReporterCoordination, ReporterParticipant } from './data-model';

/** The stored coordination of one capture (part of its runtime-state record in the store). */
export interface CoordinationRecord {
  readonly participants: readonly ReporterParticipant[];
  readonly previousReporterId: string | null;
  readonly leaseExpiredAtUtc: string | null;
  readonly lastTakeoverObservedAtUtc: string | null;
  readonly hasCompletedTakeover: boolean;
  /** The reporter that took over; once it reports again the previous owner leaves the participants (rule 2). */
  readonly takeoverReporterId: string | null;
}

export const emptyCoordination: CoordinationRecord = {
  participants: [],
  previousReporterId: null,
  leaseExpiredAtUtc: null,
  lastTakeoverObservedAtUtc: null,
  hasCompletedTakeover: false,
  takeoverReporterId: null,
};

/** The lease policy of the runtime that owns the capture. */
export interface LeasePolicy {
  readonly reporterLeaseSeconds: number;
  readonly rejectConflictingReporterIds: boolean;
}

export type AdmitResult =
  | { readonly accepted: true; readonly next: CoordinationRecord }
  | { readonly accepted: false; readonly reason: string; readonly next: CoordinationRecord };

const iso = (epochMilliseconds: number) => new Date(epochMilliseconds).toISOString();
const expired = (participant: ReporterParticipant, now: number) =>
  participant.state === 'active' &&
  participant.leaseExpiresAtUtc !== null &&
  Date.parse(participant.leaseExpiresAtUtc) <= now;

/** Active reporters whose lease lapsed become standby (they keep their history until replaced). */
function withExpiredLeases(participants: readonly ReporterParticipant[], now: number): ReporterParticipant[] {
  return participants.map((participant) =>
    expired(participant, now) ? { ...participant, state: 'standby' as const } : participant,
  );
}

/**
 * Decides whether `reporterId` may report now and returns the next coordination. A reporter is refused when
 * another reporter holds a live lease and the runtime rejects conflicting reporter ids; the refusal is kept as
 * a rejected participant. An accepted report renews the reporter's lease, clears stale rejected-conflict
 * evidence (rule 1), records a takeover when it replaces a reporter whose lease expired, and drops that
 * previous owner once the replacement reasserts its lease (rule 2).
 */
export function admitReporter(
  record: CoordinationRecord,
  reporterId: string,
  policy: LeasePolicy,
  now: number,
  edgeNodeId: string | null,
): AdmitResult {
  const participants = withExpiredLeases(record.participants, now);
  const self = participants.find((participant) => participant.reporterId === reporterId);
  const others = participants.filter((participant) => participant.reporterId !== reporterId);
  const liveOthers = others.filter((participant) => participant.state === 'active');
  const observedAtUtc = iso(now);
  if (liveOthers.length > 0 && self?.state !== 'active' && policy.rejectConflictingReporterIds) {
    const holder = liveOthers[0];
    const reason = `reporter "${holder.reporterId}" holds the lease until ${holder.leaseExpiresAtUtc}`;
    const rejected: ReporterParticipant = {
      reporterId,
      state: 'rejected',
      lastObservedAtUtc: observedAtUtc,
      leaseExpiresAtUtc: null,
      edgeNodeId,
      rejectionReason: reason,
    };
    return { accepted: false, reason, next: { ...record, participants: [...others, rejected] } };
  }
  let next: CoordinationRecord = record;
  let kept = others.filter((participant) => participant.state !== 'rejected');
  const expiredOwner =
    liveOthers.length === 0 ? others.find((participant) => participant.state === 'standby') : undefined;
  if (self?.state !== 'active' && expiredOwner) {
    next = {
      ...next,
      previousReporterId: expiredOwner.reporterId,
      leaseExpiredAtUtc: expiredOwner.leaseExpiresAtUtc,
      lastTakeoverObservedAtUtc: observedAtUtc,
      hasCompletedTakeover: true,
      takeoverReporterId: reporterId,
    };
  } else if (self?.state === 'active' && record.takeoverReporterId === reporterId) {
    kept = kept.filter((participant) => participant.reporterId !== record.previousReporterId);
    next = { ...next, takeoverReporterId: null };
  }
  const active: ReporterParticipant = {
    reporterId,
    state: 'active',
    lastObservedAtUtc: observedAtUtc,
    leaseExpiresAtUtc: iso(now + policy.reporterLeaseSeconds * 1000),
    edgeNodeId: edgeNodeId ?? self?.edgeNodeId ?? null,
    rejectionReason: null,
  };
  return { accepted: true, next: { ...next, participants: [...kept, active] } };
}

/** The published reporterCoordination of one capture at `now` (expired leases shown as standby). */
export function projectCoordination(record: CoordinationRecord, now: number): ReporterCoordination {
  const participants = withExpiredLeases(record.participants, now);
  const count = (state: ReporterParticipant['state']) =>
    participants.filter((participant) => participant.state === state).length;
  const active = count('active');
  const standby = count('standby');
  const rejected = count('rejected');
  const awaiting = active === 0 && participants.some((participant) => participant.leaseExpiresAtUtc !== null);
  const degradedReason: CoordinationIssue | null =
    rejected > 0
      ? 'rejected-reporter-conflict'
      : active > 1
        ? 'multiple-active-reporters'
        : awaiting
          ? 'awaiting-takeover'
          : null;
  return {
    reporterParticipants: participants,
    hasStandbyReporters: standby > 0,
    hasRejectedReporters: rejected > 0,
    participantCount: participants.length,
    activeReporterCount: active,
    standbyReporterCount: standby,
    rejectedReporterCount: rejected,
    takeoverState: awaiting ? 'awaiting-takeover' : null,
    degradedReason,
    requiresTakeover: awaiting,
    hasCompletedTakeover: record.hasCompletedTakeover,
    previousReporterId: record.previousReporterId,
    leaseExpiredAtUtc: record.leaseExpiredAtUtc,
    lastTakeoverObservedAtUtc: record.lastTakeoverObservedAtUtc,
  };
}

const statePriority = { rejected: 3, active: 2, standby: 1 } as const;
const issuePriority: Record<CoordinationIssue, number> = {
  'rejected-reporter-conflict': 3,
  'multiple-active-reporters': 2,
  'awaiting-takeover': 1,
};

/**
 * One runtime's coordination over its captures: a reporter appears once with its most significant state
 * (rejected, then active, then standby); the degraded reason is the most severe of any capture; the takeover
 * history is the latest one.
 */
export function mergeCoordinations(items: readonly ReporterCoordination[]): ReporterCoordination {
  const byReporter = new Map<string, ReporterParticipant>();
  for (const item of items) {
    for (const participant of item.reporterParticipants) {
      const current = byReporter.get(participant.reporterId);
      if (!current || statePriority[participant.state] > statePriority[current.state])
        byReporter.set(participant.reporterId, participant);
    }
  }
  const participants = [...byReporter.values()];
  const count = (state: ReporterParticipant['state']) =>
    participants.filter((participant) => participant.state === state).length;
  const worst = items
    .map((item) => item.degradedReason)
    .filter((reason): reason is CoordinationIssue => reason !== null)
    .sort((left, right) => issuePriority[right] - issuePriority[left])[0];
  const latestTakeover = items
    .filter((item) => item.lastTakeoverObservedAtUtc !== null)
    .sort((left, right) => left.lastTakeoverObservedAtUtc!.localeCompare(right.lastTakeoverObservedAtUtc!))
    .at(-1);
  const awaiting = items.some((item) => item.takeoverState === 'awaiting-takeover');
  return {
    reporterParticipants: participants,
    hasStandbyReporters: count('standby') > 0,
    hasRejectedReporters: count('rejected') > 0,
    participantCount: participants.length,
    activeReporterCount: count('active'),
    standbyReporterCount: count('standby'),
    rejectedReporterCount: count('rejected'),
    takeoverState: awaiting ? 'awaiting-takeover' : null,
    degradedReason: worst ?? null,
    requiresTakeover: awaiting,
    hasCompletedTakeover: items.some((item) => item.hasCompletedTakeover),
    previousReporterId: latestTakeover?.previousReporterId ?? null,
    leaseExpiredAtUtc: latestTakeover?.leaseExpiredAtUtc ?? null,
    lastTakeoverObservedAtUtc: latestTakeover?.lastTakeoverObservedAtUtc ?? null,
  };
}

/** True when the coordination matches a `/reporter-coordination/{coordinationState}` value. */
export function matchesCoordinationState(coordination: ReporterCoordination, value: string): boolean {
  return (
    coordination.takeoverState === value ||
    coordination.reporterParticipants.some((participant) => participant.state === value)
  );
}
