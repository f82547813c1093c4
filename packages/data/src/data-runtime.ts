import type { CdcCaptureDescriptor } from '@corekit/abstractions';
import { projectState, type CaptureStateBook } from './capture-state-book';
import type { CdcCaptureRuntimeState, CdcExecutionRuntime } from './data-model';
import type { ExecutionBinding, RuntimeDeclaration } from './execution-binding';
import { mergeCoordinations } from './reporter-coordination';

const unbound: ExecutionBinding = {
  authoredExecutionRuntimeId: null,
  requestedExecutionRuntimeId: null,
  effectiveExecutionRuntimeId: null,
  resolvedOwnershipMode: null,
  executionTopology: null,
  selectionReason: 'no-runtime-selected',
};

/**
 * The pack's read model: the declared captures (read from `/engine/cdc-captures` at build), their resolved
 * bindings, the runtimes and the state book. Every catalog and operation of the pack reads through it.
 */
export class DataRuntime {
  private captures: readonly CdcCaptureDescriptor[] = [];
  private bindings: ReadonlyMap<string, ExecutionBinding> = new Map();

  constructor(
    readonly runtimes: readonly RuntimeDeclaration[],
    readonly book: CaptureStateBook,
    private readonly now: () => number,
    private readonly staleAfterSeconds: number,
  ) {}

  /** Called by the build hook once bindings are resolved. */
  bind(captures: readonly CdcCaptureDescriptor[], bindings: ReadonlyMap<string, ExecutionBinding>): void {
    this.captures = captures;
    this.bindings = bindings;
  }

  allCaptures(): readonly CdcCaptureDescriptor[] {
    return this.captures;
  }

  capture(captureId: string): CdcCaptureDescriptor | undefined {
    return this.captures.find((capture) => capture.id === captureId);
  }

  bindingOf(captureId: string): ExecutionBinding {
    return this.bindings.get(captureId) ?? unbound;
  }

  runtime(runtimeId: string): RuntimeDeclaration | undefined {
    return this.runtimes.find((runtime) => runtime.id === runtimeId);
  }

  /** Captures whose effective runtime is `runtimeId`. */
  ownedBy(runtimeId: string): readonly CdcCaptureDescriptor[] {
    return this.captures.filter(
      (capture) => this.bindingOf(capture.id).effectiveExecutionRuntimeId === runtimeId,
    );
  }

  /** The capture descriptor as `/engine/cdc-captures` would show it with its resolved binding. */
  boundCapture(capture: CdcCaptureDescriptor): CdcCaptureDescriptor {
    return { ...capture, executionBinding: this.bindingOf(capture.id) };
  }

  states(): CdcCaptureRuntimeState[] {
    const now = this.now();
    return this.captures.map((capture) =>
      projectState(
        capture,
        this.bindingOf(capture.id),
        this.book.record(capture.id),
        now,
        this.staleAfterSeconds,
        this.book.scope,
      ),
    );
  }

  descriptors(): CdcExecutionRuntime[] {
    const states = this.states();
    return this.runtimes.map((runtime) => this.describe(runtime, states));
  }

  descriptor(runtimeId: string): CdcExecutionRuntime | undefined {
    const runtime = this.runtime(runtimeId);
    return runtime ? this.describe(runtime, this.states()) : undefined;
  }

  private describe(
    runtime: RuntimeDeclaration,
    allStates: readonly CdcCaptureRuntimeState[],
  ): CdcExecutionRuntime {
    const states = allStates.filter(
      (state) => state.executionBinding.effectiveExecutionRuntimeId === runtime.id,
    );
    const reported = states.filter((state) => state.lastOutcome !== null);
    const latest = [...reported]
      .sort((left, right) => left.lastObservedAtUtc!.localeCompare(right.lastObservedAtUtc!))
      .at(-1);
    const coordination = mergeCoordinations(states.map((state) => state.reporterCoordination));
    const activeReporter = coordination.reporterParticipants.find(
      (participant) => participant.state === 'active',
    );
    const edgeNodes = new Set<string>();
    for (const state of states) {
      if (state.edgeProvenance) edgeNodes.add(state.edgeProvenance.edgeNodeId);
      for (const participant of state.reporterCoordination.reporterParticipants)
        if (participant.edgeNodeId && participant.state !== 'rejected') edgeNodes.add(participant.edgeNodeId);
    }
    const count = (outcome: string) => reported.filter((state) => state.lastOutcome === outcome).length;
    return {
      id: runtime.id,
      displayName: runtime.displayName,
      description: runtime.description,
      cdcCaptureIds: states.map((state) => state.cdcCaptureId),
      executionOwnership: runtime.executionOwnership,
      executionTopology: runtime.executionTopology,
      acknowledgementMode: runtime.acknowledgementMode,
      hostedExecutionId: runtime.hostedExecutionId,
      executionGraphId: runtime.executionGraphId,
      reporterLeaseSeconds: runtime.reporterLeaseSeconds,
      rejectConflictingReporterIds: runtime.rejectConflictingReporterIds,
      edgeNodeIds: [...runtime.edgeNodeIds],
      metadata: { ...runtime.metadata, shipped: runtime.shipped },
      summary: {
        reportedCdcCaptureIds: reported.map((state) => state.cdcCaptureId),
        latestOutcome: latest?.lastOutcome ?? null,
        latestObservedAtUtc: latest?.lastObservedAtUtc ?? null,
        latestCheckpoint: latest?.checkpoint ?? null,
        latestChangeId: latest?.changeId ?? null,
        startedCount: count('started'),
        capturedCount: count('captured'),
        idleCount: count('idle'),
        failedCount: count('failed'),
        totalCapturedChanges: states.reduce((sum, state) => sum + state.totalCapturedChangeCount, 0),
        totalProducedMessages: states.reduce((sum, state) => sum + state.totalProducedMessageCount, 0),
        latestAcknowledgement: latest?.acknowledgement.state ?? 'none',
        latestError: latest?.error ?? null,
        lastReporterId: latest?.reporterId ?? null,
        activeReporterId: activeReporter?.reporterId ?? null,
        reporterLeaseExpiresAtUtc: activeReporter?.leaseExpiresAtUtc ?? null,
        observedEdgeNodeIds: [...edgeNodes].sort(),
        lastEdgeNodeId: latest?.edgeProvenance?.edgeNodeId ?? null,
        reporterCoordination: coordination,
      },
    };
  }
}
