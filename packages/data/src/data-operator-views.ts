import type { OperatorViewDefinition } from '@corekit/abstractions';
import type { CdcCaptureRuntimeState } from './data-model';
import type { DataRuntime } from './data-runtime';

/** Why a capture is in `cdc-capture-lag`, most severe first; null when it needs nobody. */
export function captureLagAttention(
  state: CdcCaptureRuntimeState,
  lagAttentionSeconds: number,
): string | null {
  if (state.lastOutcome === 'failed') return `failed (${state.failureKind ?? 'unknown'})`;
  if (state.freshness.state === 'stale') return 'stale';
  const lag = state.lag.lagSeconds;
  if (lag !== null && lag > lagAttentionSeconds) return `lag above ${lagAttentionSeconds} s`;
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
): OperatorViewDefinition<CdcCaptureRuntimeState>[] {
  return [
    {
      id: 'cdc-capture-lag',
      title: 'CDC captures lagging, stale or failed',
      description: `Captures whose last pass failed, whose last report is older than the staleness bound, or whose reported lag is above ${lagAttentionSeconds} s (Engine:Data:LagAttentionSeconds).`,
      listPath: '/engine/cdc-captures/runtime',
      idField: 'cdcCaptureId',
      entryPath: statePath,
      columns: [
        { label: 'Why', value: (state) => captureLagAttention(state, lagAttentionSeconds) },
        { label: 'Lag (s)', value: (state) => state.lag.lagSeconds },
        { label: 'Age (s)', value: (state) => state.freshness.ageSeconds },
        { label: 'Last outcome', value: (state) => state.lastOutcome },
        { label: 'Error', value: (state) => state.error },
      ],
      rows: () =>
        runtime.states().filter((state) => captureLagAttention(state, lagAttentionSeconds) !== null),
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
