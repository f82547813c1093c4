import {
  storePostureOf,
  type BuildHookContext,
  type EngineBuilder,
  type LifecycleHooks,
  type OperationPrincipal,
  type RuntimeState,
} from '@corekit/abstractions';
import { agentSurfaces } from './agent-surfaces';
import { agentEventIds, AgentTelemetry } from './agent-telemetry';
import type { AgenticRuntimeOptions } from './agents-options';
import type { AgentToolExecutionResult, ToolRunRequest } from './run-model';
import { LiveRuns } from './run-lease';
import { RunService, type ApprovalDecision } from './run-service';
import { RunStore, runStoreName } from './run-store';
import { sharedRefresh, type SharedRefresh } from './shared-refresh';
import type { AgentToolExecutor, RegisteredAgentTool } from './tool-definitions';
import { ToolRegistry } from './tool-registry';

/** Runs tools in process, through the same checks, retry, idempotency, approval and catalog as the routes. */
export interface AgentToolRuntime {
  readonly options: AgenticRuntimeOptions;
  tools(): ReadonlyArray<RegisteredAgentTool & { readonly executor: AgentToolExecutor | undefined }>;
  run(
    toolId: string,
    request?: ToolRunRequest,
    call?: { readonly signal?: AbortSignal; readonly principal?: OperationPrincipal | null },
  ): Promise<AgentToolExecutionResult>;
  decide(
    runId: string,
    decision: ApprovalDecision,
    call?: { readonly signal?: AbortSignal },
  ): Promise<AgentToolExecutionResult>;
}

interface AttachedEngine {
  readonly state: RuntimeState;
  runtimeStory?(): {
    readonly executions: ReadonlyArray<{
      readonly id: string;
      readonly kind: string;
      readonly state: string;
    }>;
  };
}

/**
 * The agents pack's state and lifecycle on one builder: the tool registry, the run store (following the shared
 * store when there is one), the run service with this replica's run leases, and the shared-store refresh that
 * interrupts runs whose lease ended. A tool is active while the engine is started and, when it names a hosted
 * execution, while that execution is active.
 */
export class AgentsPackRuntime {
  readonly tools = new ToolRegistry();
  readonly store: RunStore;
  readonly service: RunService;
  private readonly live = new LiveRuns();
  private readonly lease: { readonly replicaId: string; readonly leaseMs: number; readonly renewMs: number };
  private readonly refresh: SharedRefresh;
  private engine: AttachedEngine | undefined;

  constructor(
    private readonly builder: EngineBuilder,
    private readonly settings: AgenticRuntimeOptions,
    now: () => number,
  ) {
    this.store = new RunStore(
      builder.openStore(runStoreName, { maxEntries: settings.MaxRuns }),
      settings.SharedStoreRefreshMilliseconds,
    );
    const telemetry = new AgentTelemetry(builder);
    this.lease = {
      replicaId: builder.instanceId,
      leaseMs: settings.RunLeaseMilliseconds,
      renewMs: settings.RunLeaseRenewMilliseconds,
    };
    this.service = new RunService({
      options: settings,
      tools: this.tools,
      store: this.store,
      telemetry,
      now,
      isActive: this.isActive,
      lease: this.lease,
      live: this.live,
      shared: () => this.shared(),
    });
    this.refresh = sharedRefresh(builder, this.service, settings.SharedStoreRefreshMilliseconds, now);
  }

  /** True while tools may run: the engine started and, for a tool of a hosted execution, that execution active. */
  readonly isActive = (hostedExecutionId: string | undefined): boolean => {
    const engine = this.engine;
    if (!engine || engine.state !== 'Started') return false;
    if (hostedExecutionId === undefined || typeof engine.runtimeStory !== 'function') return true;
    const execution = engine
      .runtimeStory()
      .executions.find((item) => item.kind === 'hosted-execution' && item.id === hostedExecutionId);
    return execution?.state === 'active';
  };

  /** The in-process tool runtime (`registration.runtime`). */
  toolRuntime(): AgentToolRuntime {
    return {
      options: this.settings,
      tools: () => this.tools.list().map((tool) => ({ ...tool, executor: this.tools.executor(tool.id) })),
      run: (toolId, request = {}, call = {}) =>
        this.service.request(
          toolId,
          request,
          call.principal ?? null,
          call.signal ?? new AbortController().signal,
        ),
      decide: (runId, decision, call = {}) =>
        this.service.decide(runId, decision, call.signal ?? new AbortController().signal),
    };
  }

  /** The technology surfaces of the pack, as they are now. */
  surfaces() {
    return agentSurfaces(
      this.tools,
      this.store.list(),
      this.settings,
      this.isActive,
      storePostureOf(this.builder.storeTraits()),
      {
        replicaId: this.lease.replicaId,
        executingCount: this.live.size,
        lastRefreshedAtUtc: this.refresh.lastRefreshedAtUtc(),
        leaseInterruptedCount: this.refresh.interruptedTotal(),
        runCatalogFreshness: this.store.freshness(),
      },
    );
  }

  /** The pack's lifecycle hooks (`agents`). */
  lifecycleHooks(): LifecycleHooks {
    return {
      id: 'agents',
      build: (context) => this.checkTools(context),
      attach: (attached) => {
        this.engine = attached as AttachedEngine;
      },
      started: async () => {
        await this.store.follow(this.shared());
        await this.service.recover();
        if (this.shared()) this.refresh.start();
      },
      stopping: () => {
        this.refresh.stop();
        this.store.stopFollowing();
      },
    };
  }

  private shared(): boolean {
    return this.builder.storeTraits().shared;
  }

  /** Broken tool references fail the build; a tool without an executor is a warning (its runs answer 409). */
  private checkTools(context: BuildHookContext): readonly string[] {
    const problems = this.tools.problems(context);
    for (const tool of this.tools.list()) {
      if (this.tools.executor(tool.id)) continue;
      this.builder.addWarning({
        code: 'AGENT_TOOL_AWAITING_EXECUTOR',
        message: `Agent tool "${tool.id}" has no executor: it is reported awaiting-executor and its runs answer 409`,
        eventId: agentEventIds.toolAwaitingExecutor,
      });
    }
    return problems;
  }
}
