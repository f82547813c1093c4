import {
  callResultOf,
  exposedTools,
  rejectionOf,
  runtimeOf,
  type AgentToolCallResult,
  type AgentToolSource,
} from '@corekit/agents';
import { toolRunRequestSchema } from '@corekit/agents';
import { tool, type Tool, type ToolExecutionOptions } from 'ai';

/** What the per-call option functions are told about one model tool call. */
export interface AiSdkToolCall {
  readonly toolId: string;
  readonly toolName: string;
  readonly toolCallId: string;
  /** The `experimental_context` given to `generateText`/`streamText`, if any. */
  readonly context: unknown;
}

type PerCall<T> = T | ((call: AiSdkToolCall) => T);

/** Options of `agentToolsForAiSdk`. */
export interface AgentToolsForAiSdkOptions {
  /** Actor recorded on every run (the agent or user on whose behalf the model acts). Default: `anonymous`. */
  readonly actorId?: PerCall<string | undefined>;
  /** Correlation id of the runs (one conversation, one id). Default: a new `corr-<uuid>` per run. */
  readonly correlationId?: PerCall<string | undefined>;
  /**
   * Run id of a call. Default: a new `run-<uuid>`. Answering e.g. `ai-${toolCallId}` makes a replayed tool
   * call the same run: a duplicate inside the idempotency window answers the first output without running.
   */
  readonly runId?: (call: AiSdkToolCall) => string | undefined;
  /** Metadata recorded on the runs (masked and bounded by the pack). */
  readonly metadata?: PerCall<Readonly<Record<string, string>> | undefined>;
  /** Tools to expose. Default: every tool with an executor. An unknown or executor-less id is refused. */
  readonly toolIds?: readonly string[];
  /** Model-facing name of a tool. Default: the id with characters outside `[A-Za-z0-9_-]` replaced by `_`. */
  readonly toolName?: (toolId: string) => string;
}

const valueOf = <T>(option: PerCall<T> | undefined, call: AiSdkToolCall): T | undefined =>
  typeof option === 'function' ? (option as (call: AiSdkToolCall) => T)(call) : option;

/**
 * The registered agent tools as AI SDK `tool()` definitions, keyed by model-facing name. Each tool's
 * `inputSchema` is its executor's zod schema; `execute` runs the tool through the agents runtime (the path of
 * `POST /engine/agent-tools/{toolId}/runs`: checks, approval, idempotency, retry, run catalog) and answers an
 * `AgentToolCallResult` the model can read. Errors the model cannot fix (engine not started, unknown tool, run
 * id conflicts) are thrown; the AI SDK reports them to the model as tool errors.
 *
 * The set of tools is fixed when this is called: call it after the executors are registered. The AI SDK
 * validates the input against the schema before `execute`, and the run service parses the JSON of the
 * validated input again, so a schema whose transforms are not idempotent sees its own output the second time.
 */
export function agentToolsForAiSdk(
  source: AgentToolSource,
  options: AgentToolsForAiSdkOptions = {},
): Record<string, Tool<unknown, AgentToolCallResult>> {
  const runtime = runtimeOf(source);
  const tools: Record<string, Tool<unknown, AgentToolCallResult>> = {};
  for (const exposed of exposedTools(runtime, options.toolIds, options.toolName)) {
    const toolId = exposed.tool.id;
    const execute = async (input: unknown, execution: ToolExecutionOptions): Promise<AgentToolCallResult> => {
      const call: AiSdkToolCall = {
        toolId,
        toolName: exposed.name,
        toolCallId: execution.toolCallId,
        context: execution.experimental_context,
      };
      const request = toolRunRequestSchema.parse({
        runId: options.runId?.(call),
        actorId: valueOf(options.actorId, call),
        correlationId: valueOf(options.correlationId, call),
        metadata: valueOf(options.metadata, call),
        arguments: JSON.stringify(input ?? {}),
      });
      try {
        return callResultOf(await runtime.run(toolId, request, { signal: execution.abortSignal }));
      } catch (error) {
        const rejected = rejectionOf(toolId, error);
        if (rejected) return rejected;
        throw error;
      }
    };
    tools[exposed.name] = tool<unknown, AgentToolCallResult>({
      title: exposed.tool.displayName,
      description: exposed.tool.description,
      inputSchema: exposed.executor.argumentSchema,
      execute,
    });
  }
  return tools;
}
