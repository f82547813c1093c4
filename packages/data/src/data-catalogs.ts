import type { CatalogDefinition, CatalogNarrowing } from '@corekit/abstractions';
import {
  cdcCaptureRuntimeStateSchema,
  cdcExecutionRuntimeSchema,
  type CdcCaptureRuntimeState,
  type CdcExecutionRuntime,
} from './data-model';
import type { DataRuntime } from './data-runtime';
import { matchesCoordinationState } from './reporter-coordination';

const narrowing = <T>(
  segment: string,
  parameter: string,
  description: string,
  select: (entry: T, value: string) => boolean,
): CatalogNarrowing<T> => ({ segment, parameter, description, select });

const hasReporter = (coordination: CdcCaptureRuntimeState['reporterCoordination'], reporterId: string) =>
  coordination.reporterParticipants.some((participant) => participant.reporterId === reporterId);

/**
 * `/engine/cdc-captures/runtime` (snapshot `cdcCaptureStates`) and `/engine/cdc-capture-runtimes` (snapshot
 * `cdcCaptureExecutionRuntimes`), with every narrowing route of 4.3. Both are live views of the pack's state
 * book; every declared capture is listed before its first report.
 */
export function dataCatalogs(runtime: DataRuntime): CatalogDefinition<any>[] {
  const states: CatalogDefinition<CdcCaptureRuntimeState> = {
    id: 'cdc-capture-states',
    displayName: 'CDC capture runtime states',
    description:
      'The latest runtime state of every declared CDC capture (projected before its first report), with its binding, acknowledgement and reporter coordination.',
    path: '/engine/cdc-captures/runtime',
    snapshotField: 'cdcCaptureStates',
    idField: 'cdcCaptureId',
    entrySchema: cdcCaptureRuntimeStateSchema,
    narrowings: [
      narrowing(
        'modules',
        'moduleId',
        'States of captures declared by one module.',
        (state, value) => state.sourceModuleId === value,
      ),
      narrowing(
        'providers',
        'provider',
        'States of captures of one provider.',
        (state, value) => state.provider === value,
      ),
      narrowing(
        'outboxes',
        'outboxId',
        'States of captures staging into one outbox.',
        (state, value) => state.outboxId === value,
      ),
      narrowing(
        'sources',
        'sourceId',
        'States of captures reading one source.',
        (state, value) => state.sourceId === value,
      ),
      narrowing('resources', 'resourceId', 'States of captures covering one resource.', (state, value) =>
        state.resourceIds.includes(value),
      ),
      narrowing(
        'reporters',
        'reporterId',
        'States last reported by, or coordinating, one reporter.',
        (state, value) => state.reporterId === value || hasReporter(state.reporterCoordination, value),
      ),
      narrowing(
        'edge-nodes',
        'edgeNodeId',
        'States observed from one edge node.',
        (state, value) =>
          state.edgeProvenance?.edgeNodeId === value ||
          state.reporterCoordination.reporterParticipants.some(
            (participant) => participant.edgeNodeId === value,
          ),
      ),
      narrowing(
        'reporter-coordination',
        'coordinationState',
        'States with a reporter in this state (active, standby, rejected) or this takeover state (awaiting-takeover).',
        (state, value) => matchesCoordinationState(state.reporterCoordination, value),
      ),
      narrowing(
        'reporter-coordination/issues',
        'degradedReason',
        'States degraded for this reason (awaiting-takeover, rejected-reporter-conflict, multiple-active-reporters).',
        (state, value) => state.reporterCoordination.degradedReason === value,
      ),
      narrowing(
        'execution-runtimes',
        'executionRuntimeId',
        'States of captures effectively owned by one runtime.',
        (state, value) => state.executionBinding.effectiveExecutionRuntimeId === value,
      ),
    ],
    list: () => runtime.states(),
  };
  const runtimes: CatalogDefinition<CdcExecutionRuntime> = {
    id: 'cdc-capture-runtimes',
    displayName: 'CDC execution runtimes',
    description:
      'Shipped and host-declared CDC execution runtimes, the captures each effectively owns and a summary of their reports.',
    path: '/engine/cdc-capture-runtimes',
    snapshotField: 'cdcCaptureExecutionRuntimes',
    idField: 'id',
    entrySchema: cdcExecutionRuntimeSchema,
    narrowings: [
      narrowing(
        'reporters',
        'reporterId',
        'Runtimes one reporter reported for or coordinates in.',
        (entry, value) =>
          entry.summary.lastReporterId === value || hasReporter(entry.summary.reporterCoordination, value),
      ),
      narrowing(
        'edge-nodes',
        'edgeNodeId',
        'Runtimes that declare or observed one edge node.',
        (entry, value) =>
          entry.edgeNodeIds.includes(value) || entry.summary.observedEdgeNodeIds.includes(value),
      ),
      narrowing(
        'reporter-coordination',
        'coordinationState',
        'Runtimes with a reporter in this state (active, standby, rejected) or awaiting takeover.',
        (entry, value) => matchesCoordinationState(entry.summary.reporterCoordination, value),
      ),
      narrowing(
        'reporter-coordination/issues',
        'degradedReason',
        'Runtimes degraded for this reason.',
        (entry, value) => entry.summary.reporterCoordination.degradedReason === value,
      ),
    ],
    list: () => runtime.descriptors(),
  };
  return [states, runtimes];
}
