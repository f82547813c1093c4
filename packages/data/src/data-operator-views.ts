import type { OperatorViewDefinition } from '@corekit/abstractions';
import type { CdcCaptureRuntimeState } from './data-model';
import type { DataRuntime } from './data-runtime';

/** Why a capture is in `cdc-capture-lag`, most severe first; null when it needs nobody. */
export function captureLagAttention(
  state: CdcCaptureRuntimeState,
  lagAttentionSeconds: number,
  retentionAttentionBytes = Number.POSITIVE_INFINITY,
): string | null {
  if (state.gap) return `gap (${state.gap.reasonCode})`;
  if (state.lastOutcome === 'failed') return `failed (${state.failureKind ?? 'unknown'})`;
  if (state.freshness.state === 'stale') return 'stale';
  const lag = state.lag.lagSeconds;
  if (lag !== null && lag > lagAttentionSeconds) return `lag above ${lagAttentionSeconds} s`;
  const retained = state.lag.retainedBytes;
  if (retained !== null && retained > retentionAttentionBytes)
    return `source retains above ${retentionAttentionBytes} bytes`;
  return null;
}

const statePath = '/engine/cdc-captures/runtime/{cdcCaptureId}';

/**
 * The data pack's operator views (`builder.addOperatorView`): captures lagging, stale or failed, and captures
 * whose reporter coordination is degraded. Both read the live state book; neither adds a route.
 */
export function dataOperatorViews(
  runtime: DataRuntime,
  lagAttentionSeconds: number,
  retentionAttentionBytes = Number.POSITIVE_INFINITY,
): OperatorViewDefinition<CdcCaptureRuntimeState>[] {
  const attention = (state: CdcCaptureRuntimeState) =>
    captureLagAttention(state, lagAttentionSeconds, retentionAttentionBytes);
  return [
    {
      id: 'cdc-capture-gaps',
      title: 'CDC captures with a gap',
      description:
        'Captures that could not resume from their checkpoint (slot dropped or invalidated, resume token lost): stopped and not guaranteed until an operator accepts the gap (POST /engine/cdc-captures/runtime/{cdcCaptureId}/gap/accept) or asks for a re-snapshot (/gap/re-snapshot).',
      listPath: '/engine/cdc-captures/runtime',
      idField: 'cdcCaptureId',
      entryPath: statePath,
      columns: [
        { label: 'Reason', value: (state) => state.gap?.reasonCode ?? null },
        { label: 'Since checkpoint', value: (state) => state.gap?.checkpoint ?? null },
        { label: 'Detected', value: (state) => state.gap?.detectedAtUtc ?? null },
        { label: 'Requested', value: (state) => state.restartRequest?.action ?? null },
        { label: 'Detail', value: (state) => state.gap?.reason ?? null },
      ],
      rows: () => runtime.states().filter((state) => state.gap !== null),
    },
    {
      id: 'cdc-capture-lag',
      title: 'CDC captures lagging, stale or failed',
      description: `Captures with a gap, whose last pass failed, whose last report is older than the staleness bound, whose reported lag is above ${lagAttentionSeconds} s (Engine:Data:LagAttentionSeconds), or whose source retains more than Engine:Data:RetentionAttentionBytes for them.`,
      listPath: '/engine/cdc-captures/runtime',
      idField: 'cdcCaptureId',
      entryPath: statePath,
      columns: [
        { label: 'Why', value: attention },
        { label: 'Lag (s)', value: (state) => state.lag.lagSeconds },
        { label: 'Age (s)', value: (state) => state.freshness.ageSeconds },
        { label: 'Last outcome', value: (state) => state.lastOutcome },
        { label: 'Error', value: (state) => state.error },
        { label: 'Retained (bytes)', value: (state) => state.lag.retainedBytes },
      ],
      rows: () => runtime.states().filter((state) => attention(state) !== null),
    },
    {
      id: 'cdc-reporter-coordination',
      title: 'CDC reporter coordination issues',
      description:
        'Captures whose reporters disagree or went quiet: awaiting takeover, a rejected reporter, or more than one active reporter.',
      listPath: '/engine/cdc-captures/runtime',
      idField: 'cdcCaptureId',
      entryPath: statePath,
      columns: [
        { label: 'Issue', value: (state) => state.reporterCoordination.degradedReason },
        { label: 'Active', value: (state) => state.reporterCoordination.activeReporterCount },
        { label: 'Standby', value: (state) => state.reporterCoordination.standbyReporterCount },
        { label: 'Rejected', value: (state) => state.reporterCoordination.rejectedReporterCount },
        { label: 'Last reporter', value: (state) => state.reporterId },
      ],
      rows: () => runtime.states().filter((state) => state.reporterCoordination.degradedReason !== null),
    },
  ];
}
