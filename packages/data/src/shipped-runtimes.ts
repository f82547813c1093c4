import type { EngineBuilder } from '@corekit/abstractions';
import type { DataRuntimeOptions } from './data-options';
import type { RuntimeDeclaration } from './execution-binding';

/** Id of the shared in-process polling pump: its runtime, hosted execution, job and runner share it. */
export const capturePumpId = 'data-cdc-capture-pump';
/** Id of the pump's execution graph. */
export const captureFlowGraphId = 'data-cdc-capture-flow';
/** The module that declares the capabilities the pump's graph nodes reference. */
export const dataModuleId = 'corekit-data';

/** The steps of `data-cdc-capture-flow`, in order; acknowledgement sits between staging and reporting. */
export const captureFlowSteps = [
  ['read-cdc-changes', 'cdc.read-changes', 'Read changes after the durable checkpoint (bounded batch)'],
  ['stage-cdc-outbox', 'cdc.stage-outbox', 'Stage the batch into the outbox in one transaction'],
  [
    'acknowledge-cdc-progress',
    'cdc.acknowledge-progress',
    'Acknowledge the staged batch; only then does the checkpoint advance',
  ],
  ['report-cdc-runtime-state', 'cdc.report-runtime-state', 'Report the capture runtime state'],
] as const;

/** The shipped polling pump as a runtime declaration. */
export function capturePumpRuntime(
  settings: DataRuntimeOptions,
  providers: readonly string[],
): RuntimeDeclaration {
  return {
    id: capturePumpId,
    displayName: 'Shared CDC capture pump (in-process polling)',
    description:
      'Polls the sources of the captures it effectively owns, stages changes into the outbox, acknowledges, then reports state.',
    declaredCdcCaptureIds: settings.CapturePump.CdcCaptureIds,
    executionOwnership: 'host-managed',
    executionTopology: 'shared-in-process-polling',
    acknowledgementMode: 'post-stage-provider',
    hostedExecutionId: capturePumpId,
    executionGraphId: captureFlowGraphId,
    reporterLeaseSeconds: Math.max(30, Math.ceil((settings.CapturePump.PollIntervalMilliseconds * 3) / 1000)),
    rejectConflictingReporterIds: true,
    reporterIds: null,
    edgeNodeIds: [],
    metadata: {
      pollIntervalMilliseconds: settings.CapturePump.PollIntervalMilliseconds,
      batchSize: settings.CapturePump.BatchSize,
    },
    defaultForProviders: providers,
    shipped: true,
  };
}

/** Registers the module, graph and hosted execution of the polling pump through the pack contract. */
export function registerCaptureFlow(builder: EngineBuilder): void {
  builder.addModule({
    id: dataModuleId,
    version: '0.1.0',
    displayName: 'Core data pack',
    description: 'Declares the capabilities of the CDC capture flows the data pack runs.',
    capabilities: captureFlowSteps.map(([, capability]) => capability),
  });
  builder.addCatalogEntries('execution-graphs', dataModuleId, [
    {
      id: captureFlowGraphId,
      displayName: 'CDC capture flow (shared polling pump)',
      description: 'read → stage into the outbox → acknowledge-cdc-progress → report runtime state',
      sourceModuleId: dataModuleId,
      entryNodeId: captureFlowSteps[0][0],
      nodes: captureFlowSteps.map(([id, capabilityKey, displayName]) => ({
        id,
        displayName,
        moduleId: dataModuleId,
        capabilityKey,
      })),
      edges: captureFlowSteps.slice(1).map(([id], index) => ({
        from: captureFlowSteps[index][0],
        to: id,
        ...(id === 'report-cdc-runtime-state'
          ? { label: 'acknowledged (or failed, durable checkpoint unchanged)' }
          : {}),
      })),
    },
  ]);
  builder.addCatalogEntries('hosted-executions', dataModuleId, [
    {
      id: capturePumpId,
      displayName: 'Shared CDC capture pump',
      description:
        'Runs data-cdc-capture-flow for every capture whose effective runtime is data-cdc-capture-pump.',
      sourceModuleId: dataModuleId,
      kind: 'cdc-capture-pump',
      executionGraphId: captureFlowGraphId,
      startsWithHost: true,
    },
  ]);
}
