import { randomUUID } from 'node:crypto';
import { OperationError, type OperationPrincipal } from '@corekit/abstractions';
import type { AgenticRuntimeOptions } from './agents-options';
import { agentEventIds as ids, type AgentTelemetry } from './agent-telemetry';
import { executeRun } from './run-execution';
import { resultOf, type AgentToolExecutionResult, type StoredRun, type ToolRunRequest } from './run-model';
import { blankRun, decidedApproval, interruptedError, pendingApproval, report } from './run-reports';
import { isInFlight, leaseExpired, type LeaseSettings, type LiveRuns } from './run-lease';
import type { RunStore } from './run-store';
import { redactSummary, safeMetadata } from './summaries';
import type { ToolRegistry } from './tool-registry';
import { needsApproval, parseArguments } from './tool-arguments';

/** Stable error codes of run requests and approval decisions. */
export const agentErrorCodes = {
  toolNotFound: 'AGENT_TOOL_NOT_FOUND',
  notActive: 'AGENT_TOOL_EXECUTION_NOT_ACTIVE',
  executorMissing: 'AGENT_TOOL_EXECUTOR_MISSING',
  argumentsInvalid: 'AGENT_TOOL_ARGUMENTS_INVALID',
  runNotFound: 'AGENT_TOOL_RUN_NOT_FOUND',
  runIdConflict: 'AGENT_TOOL_RUN_ID_CONFLICT',
  runInProgress: 'AGENT_TOOL_RUN_IN_PROGRESS',
  leaseLost: 'AGENT_TOOL_RUN_LEASE_LOST',
  notAwaitingApproval: 'AGENT_TOOL_RUN_NOT_AWAITING_APPROVAL',
  actorRequired: 'AGENT_TOOL_DECISION_ACTOR_REQUIRED',
  selfDecision: 'AGENT_TOOL_SELF_DECISION',
} as const;

/** What the service needs from the pack. */
export interface RunServiceContext {
  readonly options: AgenticRuntimeOptions;
  readonly tools: ToolRegistry;
  readonly store: RunStore;
  readonly telemetry: AgentTelemetry;
  readonly now: () => number;
  /** False before the engine started, after it stopped, or when a linked hosted execution is not active. */
  readonly isActive: (hostedExecutionId: string | undefined) => boolean;
  /** This replica's id and lease timings. */
  readonly lease: LeaseSettings;
  /** Runs this engine is executing now. */
  readonly live: LiveRuns;
  /** True when the installed store provider is shared by several processes (read when the engine runs). */
  readonly shared: () => boolean;
}

/** An approval decision as the decision operation passes it. */
export interface ApprovalDecision {
  readonly decision: 'approve' | 'deny';
  readonly actorId: string;
  /** The authorized principal's subject, when the host supplied one. */
  readonly principalSubject?: string | null;
  readonly reason?: string;
}

/** True when any identity of the decision (principal subject, actor) is one of the run's requester's. */
function decidedBySelf(run: StoredRun, decision: ApprovalDecision): boolean {
  const requesters = new Set([run.actorId, run.requesterSubject].filter((id): id is string => Boolean(id)));
  return [decision.actorId, decision.principalSubject].some((id) => Boolean(id) && requesters.has(id!));
}

/** Runs tools: request checks, idempotency, approval, then execution with retry (run-execution.ts). */
export class RunService {
  constructor(private readonly context: RunServiceContext) {}

  private at(): string {
    return new Date(this.context.now()).toISOString();
  }

  private activeTool(toolId: string) {
    const tool = this.context.tools.tool(toolId);
    if (!tool)
      throw new OperationError(
        'not-found',
        agentErrorCodes.toolNotFound,
        `No agent tool "${toolId}" is registered`,
      );
    if (!this.context.options.EnableExecution || !this.context.isActive(tool.hostedExecutionId)) {
      throw new OperationError(
        'not-active',
        agentErrorCodes.notActive,
        `Agent tool execution is not active for "${toolId}"`,
      );
    }
    const executor = this.context.tools.executor(toolId);
    if (!executor) {
      throw new OperationError(
        'conflict',
        agentErrorCodes.executorMissing,
        `Agent tool "${toolId}" has no executor registered`,
      );
    }
    return { tool, executor };
  }

  /** `POST /engine/agent-tools/{toolId}/runs`. */
  async request(
    toolId: string,
    request: ToolRunRequest,
    principal: OperationPrincipal | null,
    signal: AbortSignal,
  ): Promise<AgentToolExecutionResult> {
    const { options, store, telemetry } = this.context;
    const { tool, executor } = this.activeTool(toolId);
    const argumentsText = request.arguments ?? '{}';
    const args = parseArguments(executor, argumentsText, options.MaxArgumentsLength);
    const runId = request.runId ?? `run-${randomUUID()}`;
    const actorId = request.actorId ?? principal?.subject ?? 'anonymous';
    const facts = {
      toolId,
      runId,
      sourceModuleId: tool.sourceModuleId,
      actorId,
      requesterSubject: principal?.subject ?? null,
      correlationId: request.correlationId ?? `corr-${randomUUID()}`,
      attemptBase: request.attempt ?? 1,
      metadata: safeMetadata(request.metadata, options.SummaryMaxLength),
    };

    const existing = request.runId ? await store.read(runId) : undefined;
    if (existing) {
      const previous = existing.value;
      if (previous.toolId !== toolId) {
        throw new OperationError(
          'conflict',
          agentErrorCodes.runIdConflict,
          `Run "${runId}" belongs to another tool`,
        );
      }
      if (previous.phase === 'running' || previous.phase === 'retry-wait') {
        throw new OperationError('conflict', agentErrorCodes.runInProgress, `Run "${runId}" is executing`);
      }
      if (previous.phase === 'waiting-approval') return resultOf(previous, 0, null);
      const duplicate = this.duplicateOf(previous);
      if (duplicate) {
        const skipped = report(previous, 'skipped', this.at(), { duplicateCompleted: true });
        const written = await store.write(skipped, existing.version);
        if (!written)
          throw new OperationError(
            'conflict',
            agentErrorCodes.runInProgress,
            `Run "${runId}" changed meanwhile`,
          );
        telemetry.report(
          skipped,
          'skipped',
          ids.duplicateSuppressed,
          `Duplicate of completed run ${runId} suppressed`,
        );
        return resultOf(skipped, 0, previous.output);
      }
    }

    const base = blankRun(facts, this.at(), existing?.value);
    const approvalNeeded = await needsApproval(tool, {
      toolId,
      actorId,
      arguments: args,
      metadata: facts.metadata,
    });
    if (approvalNeeded) {
      const waiting = report(base, 'approval-required', this.at(), {
        phase: 'waiting-approval',
        approval: pendingApproval(this.at()),
        pendingArguments: argumentsText,
      });
      if (!(await store.write(waiting, existing?.version ?? 0))) {
        throw new OperationError(
          'conflict',
          agentErrorCodes.runInProgress,
          `Run "${runId}" was started by another request`,
        );
      }
      telemetry.report(
        waiting,
        'approval-required',
        ids.approvalRequired,
        `Run ${runId} of ${toolId} waits for approval`,
      );
      return resultOf(waiting, 0, null);
    }
    return executeRun(this.context, executor, args, base, existing?.version ?? 0, signal);
  }

  /** A completed run inside the idempotency window, when idempotency is enabled. */
  private duplicateOf(run: StoredRun): boolean {
    const { options, now } = this.context;
    if (!options.EnableExecutionIdempotency || run.completedAtUtc === null) return false;
    if (run.latestOutcome !== 'succeeded' && run.latestOutcome !== 'skipped') return false;
    const windowEnds = Date.parse(run.completedAtUtc) + options.ExecutionIdempotencyRetentionMinutes * 60_000;
    return now() < windowEnds;
  }

  /**
   * Who requested the run: the principal subject that requested it, else the actor it named; undefined for an
   * unknown run. Read from the store itself, like a decision.
   */
  async requesterOf(runId: string): Promise<string | undefined> {
    const run = (await this.context.store.read(runId))?.value;
    return run ? (run.requesterSubject ?? run.actorId) : undefined;
  }

  /** The approval decision operation: approve (the run executes now) or deny. */
  async decide(
    runId: string,
    decision: ApprovalDecision,
    signal: AbortSignal,
  ): Promise<AgentToolExecutionResult> {
    const { store, telemetry, options } = this.context;
    const record = await store.read(runId);
    if (!record)
      throw new OperationError('not-found', agentErrorCodes.runNotFound, `No agent tool run "${runId}"`);
    const run = record.value;
    const { executor } = this.activeTool(run.toolId);
    if (run.phase !== 'waiting-approval') {
      throw new OperationError(
        'conflict',
        agentErrorCodes.notAwaitingApproval,
        `Run "${runId}" is not waiting for approval`,
      );
    }
    if (!options.AllowSelfApproval && decidedBySelf(run, decision)) {
      throw new OperationError(
        'forbidden',
        agentErrorCodes.selfDecision,
        `Run "${runId}" cannot be decided by the principal who requested it (Engine:Agents:AllowSelfApproval is false)`,
      );
    }
    const reason = decision.reason ? redactSummary(decision.reason, options.SummaryMaxLength) : null;
    const now = this.at();
    if (decision.decision === 'deny') {
      const denied = report(run, 'denied', now, {
        phase: 'finished',
        pendingArguments: null,
        approval: decidedApproval(run.approval, 'denied', decision.actorId, now, reason),
      });
      if (!(await store.write(denied, record.version))) {
        throw new OperationError(
          'conflict',
          agentErrorCodes.notAwaitingApproval,
          `Run "${runId}" was decided meanwhile`,
        );
      }
      telemetry.report(denied, 'denied', ids.runDenied, `Run ${runId} of ${run.toolId} denied`);
      return resultOf(denied, 0, null);
    }
    const args = parseArguments(executor, run.pendingArguments ?? '{}', Number.MAX_SAFE_INTEGER);
    const approved: StoredRun = {
      ...run,
      pendingArguments: null,
      outcomeCounts: { ...run.outcomeCounts, approved: run.outcomeCounts.approved + 1 },
      approval: decidedApproval(run.approval, 'approved', decision.actorId, now, reason),
    };
    telemetry.report(approved, 'approved', ids.runApproved, `Run ${runId} of ${run.toolId} approved`);
    return executeRun(this.context, executor, args, approved, record.version, signal);
  }

  /**
   * Loads the store when the engine starts. On a store no other process shares, a run left executing or
   * waiting to retry was this process's (cut short by a restart) and is reported failed with
   * AGENT_TOOL_RUN_INTERRUPTED. On a shared store another replica may be executing it: only runs whose lease
   * has expired are interrupted now, the others by `sweep` once their lease ends without renewal. Runs
   * waiting for approval keep waiting.
   */
  async recover(): Promise<void> {
    const { store, telemetry } = this.context;
    let runs: readonly StoredRun[];
    try {
      runs = await store.load();
    } catch (error) {
      telemetry.log(
        'error',
        ids.runStoreFailed,
        `The agent tool run store could not be loaded: ${(error as Error).message}`,
      );
      throw error;
    }
    const shared = this.context.shared();
    const waiting = runs.filter((run) => run.phase === 'waiting-approval').length;
    for (const run of runs) {
      if (isInFlight(run) && (!shared || leaseExpired(run, this.context.now()))) {
        await this.interrupt(run, 'restart');
      }
    }
    telemetry.log(
      'info',
      ids.runsRestored,
      `Agent tool runs restored: ${runs.length} (${waiting} waiting for approval)`,
      {
        runCount: runs.length,
        waitingCount: waiting,
      },
    );
    if (waiting > 0)
      telemetry.story(null, 'restored', `${waiting} agent tool run(s) still wait for approval`, { waiting });
  }

  /**
   * The shared-store refresh: reloads the runs every replica wrote, then reports failed (interrupted) each
   * in-flight run whose lease expired and that this engine is not executing. The write is a compare-and-set
   * on the version just read, so of several replicas sweeping at once exactly one reports it; a renewal by a
   * live owner in between wins over the sweep. Answers the number of runs this replica interrupted.
   */
  async sweep(): Promise<number> {
    const { store, live, now } = this.context;
    const runs = await store.load();
    let interrupted = 0;
    for (const run of runs) {
      if (live.has(run.runId) || !leaseExpired(run, now())) continue;
      if (await this.interrupt(run, 'lease')) interrupted += 1;
    }
    return interrupted;
  }

  /** Reports an in-flight run failed with AGENT_TOOL_RUN_INTERRUPTED; false when another write came first. */
  private async interrupt(run: StoredRun, why: 'restart' | 'lease'): Promise<boolean> {
    const { store, telemetry } = this.context;
    const record = store.find(run.runId);
    if (!record) return false;
    const errorSummary =
      why === 'restart'
        ? interruptedError
        : {
            code: interruptedError.code,
            message: `the replica executing this run (${run.ownerReplicaId ?? 'unknown'}) stopped renewing its lease`,
          };
    const failed = report(run, 'failed', this.at(), {
      phase: 'finished',
      errorSummary,
      ownerReplicaId: null,
      leaseExpiresAtUtc: null,
    });
    if (!(await store.write(failed, record.version))) return false;
    telemetry.report(
      failed,
      'interrupted',
      ids.runInterrupted,
      why === 'restart'
        ? `Run ${run.runId} was interrupted by a restart`
        : `Run ${run.runId} was interrupted: its owner ${run.ownerReplicaId ?? 'unknown'} stopped renewing its lease`,
      'warn',
    );
    return true;
  }
}
