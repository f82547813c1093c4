import { isIdentifier, type BuildHookContext } from '@corekit/abstractions';
import type { AgentToolDefinition, AgentToolExecutor, RegisteredAgentTool } from './tool-definitions';

function idsOf(entries: readonly unknown[]): Set<string> {
  return new Set(
    entries
      .map((entry) => (entry && typeof entry === 'object' ? (entry as { id?: unknown }).id : undefined))
      .filter((id): id is string => typeof id === 'string'),
  );
}

/**
 * The tools modules declared and the executors registered for them. Registration only records; `problems`
 * (run by the pack's build hook) refuses unknown modules, capability keys, graphs, hosted executions and
 * executors for unknown tools, so a broken tool is never published.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredAgentTool>();
  private readonly executors = new Map<string, AgentToolExecutor>();
  private readonly duplicates: string[] = [];

  addTools(sourceModuleId: string, tools: readonly AgentToolDefinition[]): void {
    for (const tool of tools) {
      if (this.tools.has(tool.id)) this.duplicates.push(`agent tool "${tool.id}" is declared twice`);
      else this.tools.set(tool.id, Object.freeze({ ...tool, sourceModuleId }));
    }
  }

  addExecutor(executor: AgentToolExecutor): void {
    if (this.executors.has(executor.toolId))
      this.duplicates.push(`agent tool "${executor.toolId}" has two executors`);
    else this.executors.set(executor.toolId, executor);
  }

  tool(toolId: string): RegisteredAgentTool | undefined {
    return this.tools.get(toolId);
  }

  executor(toolId: string): AgentToolExecutor | undefined {
    return this.executors.get(toolId);
  }

  list(): readonly RegisteredAgentTool[] {
    return [...this.tools.values()];
  }

  /** Every registration problem; the engine build fails with all of them. */
  problems(context: BuildHookContext): string[] {
    const problems = [...this.duplicates];
    const graphs = idsOf(context.entries('execution-graphs'));
    const executions = idsOf(context.entries('hosted-executions'));
    const offered = new Set([...context.capabilities.values()].flatMap((keys) => [...keys]));
    for (const tool of this.tools.values()) {
      const where = `agent tool "${tool.id}"`;
      if (!isIdentifier(tool.id)) problems.push(`${where}: the id must be letters, digits, . _ : -`);
      if (!tool.displayName || !tool.description)
        problems.push(`${where}: displayName and description are required`);
      if (!context.moduleIds.has(tool.sourceModuleId)) {
        problems.push(`${where}: sourceModuleId "${tool.sourceModuleId}" is not a registered module`);
      }
      for (const key of tool.capabilityKeys ?? []) {
        if (!offered.has(key)) problems.push(`${where}: capability key "${key}" is offered by no module`);
      }
      if (tool.executionGraphId !== undefined && !graphs.has(tool.executionGraphId)) {
        problems.push(
          `${where}: executionGraphId "${tool.executionGraphId}" is not a registered execution graph`,
        );
      }
      if (tool.hostedExecutionId !== undefined && !executions.has(tool.hostedExecutionId)) {
        problems.push(
          `${where}: hostedExecutionId "${tool.hostedExecutionId}" is not a registered hosted execution`,
        );
      }
      const approval = tool.approval ?? 'not-required';
      if (typeof approval !== 'function' && approval !== 'required' && approval !== 'not-required') {
        problems.push(`${where}: approval must be "required", "not-required" or a function`);
      }
    }
    for (const executor of this.executors.values()) {
      if (!this.tools.has(executor.toolId))
        problems.push(`an executor is registered for unknown agent tool "${executor.toolId}"`);
      if (!executor.argumentSchema || typeof executor.argumentSchema.safeParse !== 'function') {
        problems.push(`the executor of agent tool "${executor.toolId}" has no zod argumentSchema`);
      }
    }
    return problems;
  }
}
