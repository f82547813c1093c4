import { defineExtensionKey, type EngineBuilder } from '@corekit/abstractions';
import { agentToolRunCatalog } from './agent-catalog';
import { agentOperations } from './agent-operations';
import { agentEventIdCatalog } from './agent-telemetry';
import {
  agenticRuntimeOptionsSchema,
  agentsSectionPath,
  type AgenticRuntimeOptionsInput,
} from './agents-options';
import { AgentsPackRuntime, type AgentToolRuntime } from './agents-pack-runtime';
import type { AgentToolDefinition, AgentToolExecutor } from './tool-definitions';

export type { AgentToolRuntime } from './agents-pack-runtime';

/** Options of `addAgents`: the `Engine:Agents` keys plus a clock for tests. */
export interface AddAgentsOptions extends AgenticRuntimeOptionsInput {
  /** Source of time for run timestamps and the idempotency window. Default: the system clock. */
  readonly clock?: { now(): number };
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
  const pack = new AgentsPackRuntime(builder, settings, now);
  builder.addEventIds(agentEventIdCatalog);
  builder.addCatalog(agentToolRunCatalog(pack.store));
  for (const operation of agentOperations(pack.service)) builder.addOperation(operation);
  builder.addTechnologySurfaces(() => pack.surfaces());
  builder.addLifecycleHooks(pack.lifecycleHooks());

  const registration: AgentsRegistration = {
    addTools(sourceModuleId, declared) {
      pack.tools.addTools(sourceModuleId, declared);
      return registration;
    },
    addExecutor(executor) {
      pack.tools.addExecutor(executor as AgentToolExecutor);
      return registration;
    },
    runtime: pack.toolRuntime(),
  };
  builder.provide(agentsRegistrationKey, registration);
  return registration;
}
