/**
 * What the model-facing adapters (@corekit/agents-ai-sdk, @corekit/agents-mcp) share: finding the in-process run
 * runtime, choosing and naming the tools to expose, and turning run answers into results a model can read.
 */
import { CoreError, type ExtensionResolver } from '@corekit/abstractions';
import { agentsRegistrationKey, type AgentsRegistration, type AgentToolRuntime } from '../add-agents';
import type { AgentToolExecutor, RegisteredAgentTool } from '../tool-definitions';

/** Where the adapter finds the agents runtime: a built engine, the `addAgents` handle, or the runtime itself. */
export type AgentToolSource = ExtensionResolver | AgentsRegistration | AgentToolRuntime;

/** A tool the adapter exposes: the declaration, its executor, and the name the model sees. */
export interface ExposedAgentTool {
  readonly name: string;
  readonly tool: RegisteredAgentTool;
  readonly executor: AgentToolExecutor;
}

/** Resolves the in-process runtime; a source without the agents pack is refused with AGENTS_NOT_REGISTERED. */
export function runtimeOf(source: AgentToolSource): AgentToolRuntime {
  if ('run' in source && 'tools' in source) return source;
  if ('runtime' in source) return source.runtime;
  const registration = source.resolve(agentsRegistrationKey);
  if (!registration) {
    throw new CoreError(
      'AGENTS_NOT_REGISTERED',
      'The engine has no agents pack: call addAgents(builder) first',
    );
  }
  return registration.runtime;
}

/**
 * A model-facing tool name from a tool id: characters outside `allowed` replaced by `_`, cut at `maxLength`
 * (model APIs and MCP clients each have their own rule; the adapters pass theirs).
 */
export function modelToolName(toolId: string, allowed: RegExp, maxLength: number): string {
  let name = '';
  for (const character of toolId) name += allowed.test(character) ? character : '_';
  return name.slice(0, maxLength);
}

/** Default model-facing name: characters outside [A-Za-z0-9_-] replaced by `_`, 64 at most (model APIs). */
export function defaultToolName(toolId: string): string {
  return modelToolName(toolId, /[A-Za-z0-9_-]/, 64);
}

/**
 * The tools to expose: every tool with an executor (or exactly `toolIds`), named by `toolName`. An unknown or
 * executor-less id in `toolIds`, or two tools mapped to one name, is refused with a coded error.
 */
export function exposedTools(
  runtime: AgentToolRuntime,
  toolIds: readonly string[] | undefined,
  toolName: (toolId: string) => string = defaultToolName,
): ExposedAgentTool[] {
  const all = runtime.tools();
  const picked = toolIds
    ? toolIds.map((id) => {
        const found = all.find((tool) => tool.id === id);
        if (!found?.executor) {
          throw new CoreError(
            'AGENT_TOOL_NOT_EXPOSABLE',
            `Agent tool "${id}" is ${found ? 'awaiting an executor' : 'not registered'}`,
          );
        }
        return found;
      })
    : all.filter((tool) => tool.executor !== undefined);
  const names = new Map<string, string>();
  return picked.map(({ executor, ...tool }) => {
    const name = toolName(tool.id);
    const clash = names.get(name);
    if (clash !== undefined) {
      throw new CoreError(
        'AGENT_TOOL_NAME_CLASH',
        `Agent tools "${clash}" and "${tool.id}" both map to "${name}"`,
      );
    }
    names.set(name, tool.id);
    return { name, tool, executor: executor as AgentToolExecutor };
  });
}
