import {
  durabilityOrNone,
  type SharedStateFreshnessMetadata,
  type StorePosture,
  type TechnologySurface,
} from '@corekit/abstractions';
import type { AgenticRuntimeOptions } from './agents-options';
import type { StoredRun } from './run-model';
import type { ToolRegistry } from './tool-registry';

const sourcePackage = '@corekit/agents';

function posture(count: number, active: string): string {
  return count > 0 ? active : 'none';
}

/** Per-process facts of this replica, each reported in its own field. */
export interface ReplicaFacts {
  readonly replicaId: string;
  /** Runs this process is executing now. */
  readonly executingCount: number;
  readonly lastRefreshedAtUtc: string | null;
  /** Runs this process reported interrupted after their owner's lease ended. */
  readonly leaseInterruptedCount: number;
  /** How the run catalog follows other replicas (change feed or refresh job) and its staleness bound. */
  readonly runCatalogFreshness: SharedStateFreshnessMetadata;
}

/**
 * One surface per tool (descriptor, ownership, run postures and counters) plus the execution capability.
 * `runStore` is the posture of the store runs live on (the installed provider's): idempotency checks the
 * stored run, so its durability and scope are the store's.
 */
export function agentSurfaces(
  tools: ToolRegistry,
  runs: readonly StoredRun[],
  options: AgenticRuntimeOptions,
  isActive: (hostedExecutionId: string | undefined) => boolean,
  runStore: StorePosture,
  replica: ReplicaFacts,
): TechnologySurface[] {
  const surfaces: TechnologySurface[] = tools.list().map((tool) => {
    const own = runs.filter((run) => run.toolId === tool.id);
    const last = own[0];
    const executorConfigured = tools.executor(tool.id) !== undefined;
    const count = (select: (run: StoredRun) => boolean) => own.filter(select).length;
    const executionEnabled = options.EnableExecution && isActive(tool.hostedExecutionId);
    const sum = (field: keyof StoredRun['outcomeCounts']) =>
      own.reduce((total, run) => total + run.outcomeCounts[field], 0);
    const retryPending = count((run) => run.latestOutcome === 'retry-scheduled');
    const waiting = count((run) => run.latestOutcome === 'approval-required');
    const duplicates = count((run) => run.latestOutcome === 'skipped' && run.duplicateCompleted);
    const terminal = count((run) => run.latestOutcome === 'failed');
    return {
      id: `agent-tool:${tool.id}`,
      kind: 'agent-tool',
      displayName: tool.displayName,
      sourcePackage,
      metadata: {
        toolId: tool.id,
        description: tool.description,
        sourceModuleId: tool.sourceModuleId,
        tags: [...(tool.tags ?? [])],
        capabilityKeys: [...(tool.capabilityKeys ?? [])],
        executionGraphId: tool.executionGraphId ?? null,
        hostedExecutionId: tool.hostedExecutionId ?? null,
        approvalPolicy:
          typeof tool.approval === 'function' ? 'policy-function' : (tool.approval ?? 'not-required'),
        executionEnabled,
        executionOwnership: executorConfigured ? 'core-managed' : 'awaiting-executor',
        executorConfigured,
        executorCount: executorConfigured ? 1 : 0,
        runtimeState: !executorConfigured
          ? 'awaiting-executor'
          : !executionEnabled
            ? 'not-active'
            : own.length === 0
              ? 'ready'
              : 'reported',
        runCount: own.length,
        lastRunId: last?.runId ?? null,
        lastOutcome: last?.latestOutcome ?? null,
        retryPosture: posture(retryPending, 'retry-pending'),
        retryPendingCount: retryPending,
        approvalPosture: posture(waiting, 'approval-required'),
        approvalRequiredCount: waiting,
        duplicatePosture: posture(duplicates, 'duplicate-completed'),
        duplicateCount: duplicates,
        terminalFailurePosture: posture(terminal, 'terminal-failure'),
        terminalFailureCount: terminal,
        totalReports: own.reduce((total, run) => total + run.totalReports, 0),
        approvalCount: sum('approved'),
        denialCount: sum('denied'),
        lastActorId: last?.actorId ?? null,
        lastCorrelationId: last?.correlationId ?? null,
        'reported.lastObservedAtUtc': last?.observedAtUtc ?? null,
        'reported.lastAttempt': last?.attempt ?? null,
        'reported.lastErrorCode': last?.errorSummary?.code ?? null,
        'reported.succeededCount': sum('succeeded'),
        'reported.failedCount': sum('failed'),
        'reported.retryScheduledCount': sum('retryScheduled'),
      },
    };
  });
  const retryEnabled = options.ExecutionMaxAttempts > 1;
  const idempotent = options.EnableExecutionIdempotency;
  surfaces.push({
    id: 'agent-tool-execution',
    kind: 'agent-execution',
    displayName: 'Agent tool execution',
    sourcePackage,
    metadata: {
      executionEnabled: options.EnableExecution,
      executionOwnership: 'core-managed',
      toolCount: tools.list().length,
      executorCount: tools.list().filter((tool) => tools.executor(tool.id)).length,
      timeoutMilliseconds: options.ExecutionTimeoutMilliseconds,
      retryPolicy: retryEnabled ? 'bounded-in-process' : 'none',
      retryMaxAttempts: options.ExecutionMaxAttempts,
      retryDelayMilliseconds: options.ExecutionRetryDelayMilliseconds,
      retryDurability: 'none',
      retryScope: 'process-local',
      idempotencyPolicy: idempotent ? 'completed-run' : 'none',
      idempotencyKey: 'tool-run',
      idempotencyRetentionMinutes: options.ExecutionIdempotencyRetentionMinutes,
      idempotencyBacking: 'run-store',
      idempotencyDurability: idempotent ? durabilityOrNone(runStore) : 'none',
      idempotencyScope: idempotent ? runStore.scope : 'process-local',
      idempotencyStoreKind: idempotent ? runStore.kind : null,
      runStateStoreKind: runStore.kind,
      runStateDurability: runStore.durability,
      runStateScope: runStore.scope,
      runCatalogSource: !runStore.shared
        ? 'store-write-through'
        : replica.runCatalogFreshness.sharedStatePropagation === 'change-feed'
          ? 'shared-store-change-feed'
          : 'shared-store-refresh',
      runCatalogStalenessBoundMilliseconds: runStore.shared
        ? (replica.runCatalogFreshness.sharedStateStalenessBoundMilliseconds ??
          options.SharedStoreRefreshMilliseconds)
        : 0,
      ...(runStore.shared ? replica.runCatalogFreshness : {}),
      runCatalogRefreshedAtUtc: runStore.shared ? replica.lastRefreshedAtUtc : null,
      runOwnership: runStore.shared ? 'replica-lease' : 'single-process',
      runLeaseMilliseconds: options.RunLeaseMilliseconds,
      runLeaseRenewMilliseconds: options.RunLeaseRenewMilliseconds,
      replicaId: replica.replicaId,
      replicaIdScope: 'process-local',
      executingRunCount: replica.executingCount,
      executingRunCountScope: 'process-local',
      leaseInterruptedRunCount: replica.leaseInterruptedCount,
      leaseInterruptedRunCountScope: 'process-local',
    },
  });
  return surfaces;
}
