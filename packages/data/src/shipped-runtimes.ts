import type { EngineBuilder } from '@corekit/abstractions';
import type { DataRuntimeOptions } from './data-options';
import type { RuntimeDeclaration } from './execution-binding';

/** Id of the shared in-process polling pump: its runtime, hosted execution, job and runner share it. */
export const capturePumpId = 'data-cdc-capture-pump';
/** Id of the pump's execution graph. */
export const captureFlowGraphId = 'data-cdc-capture-flow';
/** The module that declares the capabilities the pump's graph nodes reference. */
export const dataModuleId = 'corekit-data';

/** Id of the document-database change-stream pump (runtime, hosted execution, job, runner). */
export const changeStreamPumpId = 'data-cdc-change-stream-pump';
/** Id of the change-stream pump's own capture-flow graph. */
export const changeStreamFlowGraphId = 'data-cdc-change-stream-flow';

/** The steps of `data-cdc-change-stream-flow`: the resume token is acknowledged before state is reported. */
export const changeStreamFlowSteps = [
  ['open-change-stream', 'cdc.open-change-stream', 'Open the change stream after the stored resume token'],
  [
    'stage-cdc-outbox',
    'cdc.stage-outbox',
    'Stage the events into the outbox collection (idempotent per token)',
  ],
  [
    'acknowledge-cdc-progress',
    'cdc.acknowledge-progress',
    'Make the last resume token the durable checkpoint',
  ],
  ['report-cdc-runtime-state', 'cdc.report-runtime-state', 'Report the capture runtime state'],
] as const;

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

/** The change-stream pump as a runtime declaration. */
export function changeStreamPumpRuntime(settings: DataRuntimeOptions): RuntimeDeclaration {
  return {
    id: changeStreamPumpId,
    displayName: 'Document-database change-stream capture pump',
    description:
      'Reads change streams after the stored resume token, stages events into the outbox collection, keeps the token as checkpoint.',
    declaredCdcCaptureIds: settings.ChangeStreamPump.CdcCaptureIds,
    executionOwnership: 'host-managed',
    executionTopology: 'provider-native',
    acknowledgementMode: 'provider-native',
    hostedExecutionId: changeStreamPumpId,
    executionGraphId: changeStreamFlowGraphId,
    reporterLeaseSeconds: Math.max(
      30,
      Math.ceil((settings.ChangeStreamPump.PollIntervalMilliseconds * 3) / 1000),
    ),
    rejectConflictingReporterIds: true,
    reporterIds: null,
    edgeNodeIds: [],
    metadata: {
      pollIntervalMilliseconds: settings.ChangeStreamPump.PollIntervalMilliseconds,
      batchSize: settings.ChangeStreamPump.BatchSize,
    },
    defaultForProviders: ['mongodb'],
    shipped: true,
  };
}

/** A shipped flow: its graph, steps and hosted execution. */
export interface ShippedFlow {
  readonly pumpId: string;
  readonly graphId: string;
  readonly displayName: string;
  readonly steps: ReadonlyArray<readonly [string, string, string]>;
}

export const shippedFlows: Readonly<Record<string, ShippedFlow>> = {
  [capturePumpId]: {
    pumpId: capturePumpId,
    graphId: captureFlowGraphId,
    displayName: 'CDC capture flow (shared polling pump)',
    steps: captureFlowSteps,
  },
  [changeStreamPumpId]: {
    pumpId: changeStreamPumpId,
    graphId: changeStreamFlowGraphId,
    displayName: 'CDC change-stream capture flow',
    steps: changeStreamFlowSteps,
  },
};

/** Registers the data module, then the graph and hosted execution of each enabled pump, through the pack contract. */
export function registerFlows(builder: EngineBuilder, flows: readonly ShippedFlow[]): void {
  if (flows.length === 0) return;
  builder.addModule({
    id: dataModuleId,
    version: '0.1.0',
    displayName: 'Core data pack',
    description: 'Declares the capabilities of the CDC capture flows the data pack runs.',
    capabilities: [...new Set(flows.flatMap((flow) => flow.steps.map(([, capability]) => capability)))],
  });
  builder.addCatalogEntries(
    'execution-graphs',
    dataModuleId,
    flows.map((flow) => ({
      id: flow.graphId,
      displayName: flow.displayName,
      description: flow.steps.map(([id]) => id).join(' → '),
      sourceModuleId: dataModuleId,
      entryNodeId: flow.steps[0][0],
      nodes: flow.steps.map(([id, capabilityKey, displayName]) => ({
        id,
        displayName,
        moduleId: dataModuleId,
        capabilityKey,
      })),
      edges: flow.steps.slice(1).map(([id], index) => ({
        from: flow.steps[index][0],
        to: id,
        ...(id === 'report-cdc-runtime-state'
          ? { label: 'acknowledged (or failed, durable checkpoint unchanged)' }
          : {}),
      })),
    })),
  );
  builder.addCatalogEntries(
    'hosted-executions',
    dataModuleId,
    flows.map((flow) => ({
      id: flow.pumpId,
      displayName: flow.displayName,
      description: `Runs ${flow.graphId} for every capture whose effective runtime is ${flow.pumpId}.`,
      sourceModuleId: dataModuleId,
      kind: 'cdc-capture-pump',
      executionGraphId: flow.graphId,
      startsWithHost: true,
    })),
  );
}
