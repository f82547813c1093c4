import type { CaptureRecord } from './capture-state-book';
import type { CaptureGap, RestartRequest } from './data-model';

/**
 * Records a gap found by a provider: kept as found the first time (a gap seen again keeps its first
 * detection time and checkpoint), with the capture marked `not-guaranteed` naming the reason and the
 * operator's choices. Nothing is resumed, created or skipped here: the pump stops the capture until an
 * operator asks for a restart.
 */
export function openGap(
  record: CaptureRecord,
  found: { readonly reasonCode: string; readonly reason: string },
  detectedAtUtc: string,
): CaptureRecord {
  const gap: CaptureGap = record.gap ?? {
    reasonCode: found.reasonCode,
    reason: found.reason.slice(0, 500),
    detectedAtUtc,
    checkpoint: record.acknowledgement.durableCheckpoint ?? record.checkpoint,
    resolution: null,
  };
  return { ...record, gap, completeness: { state: 'not-guaranteed', reason: gapCompletenessReason(gap) } };
}

/** The completeness reason of a capture with an open gap: what happened and what the operator can do. */
export function gapCompletenessReason(gap: CaptureGap): string {
  return `gap ${gap.reasonCode} since ${gap.checkpoint ?? 'the start'}: changes after it may be lost; choose POST /engine/cdc-captures/runtime/{cdcCaptureId}/gap/accept or /re-snapshot`.slice(
    0,
    500,
  );
}

/** Stores an operator's restart request; the next pass of the owning pump performs it. */
export function requestRestart(record: CaptureRecord, request: RestartRequest): CaptureRecord {
  return { ...record, restartRequest: request };
}

/**
 * After the provider started over: the gap (if any) is closed with the request as its resolution, the old
 * checkpoint is dropped (the provider's new position replaces it in the same pass), and the request is done.
 */
export function completeRestart(record: CaptureRecord, completedAtUtc: string): CaptureRecord {
  const request = record.restartRequest;
  if (!request) return record;
  return {
    ...record,
    gap: null,
    lastResolvedGap: record.gap
      ? { ...record.gap, resolution: { ...request, completedAtUtc } }
      : (record.lastResolvedGap ?? null),
    restartRequest: null,
    checkpoint: null,
    changeId: null,
    completeness: null,
    acknowledgement: {
      ...record.acknowledgement,
      durableCheckpoint: null,
      pendingCheckpoint: null,
      pendingChangeId: null,
    },
  };
}
