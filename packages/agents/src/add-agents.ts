import {
  defineExtensionKey,
  storePostureOf,
  type EngineBuilder,
  type OperationPrincipal,
  type RuntimeState,
} from '@corekit/abstractions';
import { agentToolRunCatalog } from './agent-catalog';
import { agentOperations } from './agent-operations';
import { agentSurfaces } from './agent-surfaces';
import { agentEventIdCatalog, agentEventIds, AgentTelemetry } from './agent-telemetry';
import {
  agenticRuntimeOptionsSchema,
  agentsSectionPath,
  type AgenticRuntimeOptions,
  type AgenticRuntimeOptionsInput,
} from './agents-options';
import type { AgentToolExecutionResult, ToolRunRequest } from './run-model';
import { LiveRuns } from './run-lease';
import { RunService, type ApprovalDecision } from './run-service';
import { sharedRefresh } from './shared-refresh';
import { RunStore, runStoreName } from './run-store';
import type { AgentToolDefinition, AgentToolExecutor, RegisteredAgentTool } from './tool-definitions';
import { ToolRegistry } from './tool-registry';

/** Options of `addAgents`: the `Engine:Agents` keys plus a clock for tests. */
export interface AddAgentsOptions extends AgenticRuntimeOptionsInput {
  /** Source of time for run timestamps and the idempotency window. Default: the system clock. */
  readonly clock?: { now(): number };
}

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

/** What `addAgents` answers: where modules declare tools and register executors. */
export interface AgentsRegistration {
  /** Declares tools on behalf of a module (references checked when the engine is built). */
  addTools(sourceModuleId: string, tools: readonly AgentToolDefinition[]): AgentsRegistration;
  /** Registers the executor of a declared tool (one per tool). */
  addExecutor<TArguments, TOutput>(executor: AgentToolExecutor<TArguments, TOutput>): AgentsRegistration;
  readonly runtime: AgentToolRuntime;
}

/** The typed key under which `addAgents` provides its registration (adapters and other packs resolve it). */
export const agentsRegistrationKey = defineExtensionKey<AgentsRegistration>(
  '@corekit/agents/registration',
  'agent tool declarations, executors and the in-process tool runtime',
);

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
 * Registers the agents pack: the `Engine:Agents` section, the run store, the run-state catalog and its views,
 * the run and approval-decision operations, technology surfaces, event ids 3240-3259 and a build hook that
 * refuses broken tool references. Calling it twice on one builder is refused.
 */
export function addAgents(builder: EngineBuilder, options: AddAgentsOptions = {}): AgentsRegistration {
  builder.claimRegistration({ packageName: '@corekit/agents', entry: 'addAgents' });
  const { clock, ...codeOptions } = options;
  const settings = builder.configuration.bind(agentsSectionPath, agenticRuntimeOptionsSchema, codeOptions);
  builder.declarePack({ packageName: '@corekit/agents', specificationVersion: 1 });
  const now = clock ? () => clock.now() : () => Date.now();
  const tools = new ToolRegistry();
  const store = new RunStore(
    builder.openStore(runStoreName, { maxEntries: settings.MaxRuns }),
    settings.SharedStoreRefreshMilliseconds,
  );
  const telemetry = new AgentTelemetry(builder);
  let engine: AttachedEngine | undefined;
  const isActive = (hostedExecutionId: string | undefined) => {
    if (!engine || engine.state !== 'Started') return false;
    if (hostedExecutionId === undefined || typeof engine.runtimeStory !== 'function') return true;
    const execution = engine
      .runtimeStory()
      .executions.find((item) => item.kind === 'hosted-execution' && item.id === hostedExecutionId);
    return execution?.state === 'active';
  };
  const lease = {
    replicaId: builder.instanceId,
    leaseMs: settings.RunLeaseMilliseconds,
    renewMs: settings.RunLeaseRenewMilliseconds,
  };
  const live = new LiveRuns();
  const shared = () => builder.storeTraits().shared;
  const service = new RunService({
    options: settings,
    tools,
    store,
    telemetry,
    now,
    isActive,
    lease,
    live,
    shared,
  });
  const refresh = sharedRefresh(builder, service, settings.SharedStoreRefreshMilliseconds, now);

  builder.addEventIds(agentEventIdCatalog);
  builder.addCatalog(agentToolRunCatalog(store));
  for (const operation of agentOperations(service)) builder.addOperation(operation);
  builder.addTechnologySurfaces(() =>
    agentSurfaces(tools, store.list(), settings, isActive, storePostureOf(builder.storeTraits()), {
      replicaId: lease.replicaId,
      executingCount: live.size,
      lastRefreshedAtUtc: refresh.lastRefreshedAtUtc(),
      leaseInterruptedCount: refresh.interruptedTotal(),
      runCatalogFreshness: store.freshness(),
    }),
  );
  builder.addLifecycleHooks({
    id: 'agents',
    build: (context) => {
      const problems = tools.problems(context);
      for (const tool of tools.list()) {
        if (tools.executor(tool.id)) continue;
        builder.addWarning({
          code: 'AGENT_TOOL_AWAITING_EXECUTOR',
          message: `Agent tool "${tool.id}" has no executor: it is reported awaiting-executor and its runs answer 409`,
          eventId: agentEventIds.toolAwaitingExecutor,
        });
      }
      return problems;
    },
    attach: (attached) => {
      engine = attached as AttachedEngine;
    },
    started: async () => {
      await store.follow(shared());
      await service.recover();
      if (shared()) refresh.start();
    },
    stopping: () => {
      refresh.stop();
      store.stopFollowing();
    },
  });

  const runtime: AgentToolRuntime = {
    options: settings,
    tools: () => tools.list().map((tool) => ({ ...tool, executor: tools.executor(tool.id) })),
    run: (toolId, request = {}, call = {}) =>
      service.request(toolId, request, call.principal ?? null, call.signal ?? new AbortController().signal),
    decide: (runId, decision, call = {}) =>
      service.decide(runId, decision, call.signal ?? new AbortController().signal),
  };
  const registration: AgentsRegistration = {
    addTools(sourceModuleId, declared) {
      tools.addTools(sourceModuleId, declared);
      return registration;
    },
    addExecutor(executor) {
      tools.addExecutor(executor as AgentToolExecutor);
      return registration;
    },
    runtime,
  };
  builder.provide(agentsRegistrationKey, registration);
  return registration;
}
