import type { JobHandle, TechnologySurface } from '@corekit/abstractions';
import type { DataRuntime } from './data-runtime';

/**
 * One technology surface per shipped pump runtime (kind `cdc-capture-pumps`): ownership, topology,
 * acknowledgement mode, the captures it runs, its job posture and the summary counters. Never a connection
 * string, never a payload.
 */
export function dataSurfaces(
  runtime: DataRuntime,
  jobs: ReadonlyMap<string, JobHandle<unknown>>,
  providers: Readonly<Record<string, readonly string[]>>,
): TechnologySurface[] {
  return runtime
    .descriptors()
    .filter((descriptor) => descriptor.metadata.shipped === true)
    .map((descriptor) => {
      const job = jobs.get(descriptor.id)?.state();
      return {
        id: descriptor.id,
        kind: 'cdc-capture-pumps',
        displayName: descriptor.displayName,
        sourcePackage: '@corekit/data',
        metadata: {
          executionOwnership: descriptor.executionOwnership,
          executionTopology: descriptor.executionTopology,
          acknowledgementMode: descriptor.acknowledgementMode,
          executionGraphId: descriptor.executionGraphId,
          hostedExecutionId: descriptor.hostedExecutionId,
          executionEnabled: job !== undefined,
          cdcCaptureIds: descriptor.cdcCaptureIds,
          providers: providers[descriptor.id] ?? [],
          runCount: job?.runCount ?? 0,
          failureCount: job?.failureCount ?? 0,
          lastRunOutcome: job?.lastOutcome ?? null,
          lastRunCompletedAtUtc: job?.lastCompletedAtUtc ?? null,
          totalCapturedChanges: descriptor.summary.totalCapturedChanges,
          totalProducedMessages: descriptor.summary.totalProducedMessages,
          failedCaptureCount: descriptor.summary.failedCount,
          latestAcknowledgement: descriptor.summary.latestAcknowledgement,
          activeReporterId: descriptor.summary.activeReporterId,
          captureStateScope: runtime.book.scope,
          ...runtime.book.freshness(),
        },
      };
    });
}
