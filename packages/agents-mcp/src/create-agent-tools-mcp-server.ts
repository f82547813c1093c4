import {
  callResultOf,
  exposedTools,
  modelToolName,
  rejectionOf,
  runtimeOf,
  type AgentToolCallResult,
  type AgentToolSource,
} from '@corekit/agents';

/** Default MCP tool name: characters outside [A-Za-z0-9_.-] replaced by `_`, 128 at most. */
export const mcpToolName = (toolId: string): string => modelToolName(toolId, /[A-Za-z0-9_.-]/, 128);
import { toolRunRequestSchema } from '@corekit/agents';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What the per-call option functions are told about one MCP `tools/call`. */
export interface McpToolCall {
  readonly toolId: string;
  readonly toolName: string;
  /** The JSON-RPC request id (unique per session, not across sessions). */
  readonly requestId: string | number;
  readonly sessionId: string | undefined;
  /** What the transport's authentication established, if any (e.g. `clientId`). */
  readonly authInfo: AuthInfo | undefined;
}

type PerCall<T> = T | ((call: McpToolCall) => T);

/** Options of `createAgentToolsMcpServer`. */
export interface AgentToolsMcpServerOptions {
  /** Server name and version the client sees. Default: `corekit-agents` and `0.1.0`. */
  readonly name?: string;
  readonly version?: string;
  /** Actor recorded on every run. Default: the authenticated `clientId`, else `anonymous`. */
  readonly actorId?: PerCall<string | undefined>;
  /** Correlation id of the runs. Default: the MCP session id when there is one, else a new `corr-<uuid>`. */
  readonly correlationId?: PerCall<string | undefined>;
  /** Run id of a call. Default: a new `run-<uuid>`. */
  readonly runId?: (call: McpToolCall) => string | undefined;
  /** Metadata recorded on the runs (masked and bounded by the pack). */
  readonly metadata?: PerCall<Readonly<Record<string, string>> | undefined>;
  /** Tools to serve. Default: every tool with an executor. An unknown or executor-less id is refused. */
  readonly toolIds?: readonly string[];
  /** MCP tool name of a tool. Default: the id with characters outside `[A-Za-z0-9_.-]` replaced by `_`. */
  readonly toolName?: (toolId: string) => string;
}

const valueOf = <T>(option: PerCall<T> | undefined, call: McpToolCall): T | undefined =>
  typeof option === 'function' ? (option as (call: McpToolCall) => T)(call) : option;

/** The MCP answer: the result as JSON text and structured content; failed and rejected calls are `isError`. */
function toolResultOf(result: AgentToolCallResult): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    structuredContent: { ...result },
    isError: result.status === 'failed' || result.status === 'rejected',
  };
}

/**
 * An MCP server offering the registered agent tools: name, title, description and input schema (from the
 * executor's zod schema; a schema that is not an object is listed as an empty object). Each `tools/call` runs
 * the tool through the agents runtime (the path of `POST /engine/agent-tools/{toolId}/runs`: checks, approval,
 * idempotency, retry, run catalog). Connect it to a transport of your choice (`server.connect(transport)`).
 *
 * The tool set is fixed when the server is created: create it after the executors are registered. The SDK
 * validates arguments against the schema before the call reaches the run service (an invalid call is an error
 * result and creates no run); the run service parses the JSON of the validated arguments again, so a schema
 * whose transforms are not idempotent sees its own output the second time. Errors thrown by the runtime (engine
 * not started, run id conflicts) reach the client as error results with their message.
 */
export function createAgentToolsMcpServer(
  source: AgentToolSource,
  options: AgentToolsMcpServerOptions = {},
): McpServer {
  const runtime = runtimeOf(source);
  const server = new McpServer({
    name: options.name ?? 'corekit-agents',
    version: options.version ?? '0.1.0',
  });
  for (const exposed of exposedTools(runtime, options.toolIds, options.toolName ?? mcpToolName)) {
    const toolId = exposed.tool.id;
    server.registerTool(
      exposed.name,
      {
        title: exposed.tool.displayName,
        description: exposed.tool.description,
        inputSchema: exposed.executor.argumentSchema as never,
      },
      (async (
        args: unknown,
        extra: { signal: AbortSignal; requestId: string | number; sessionId?: string; authInfo?: AuthInfo },
      ) => {
        const call: McpToolCall = {
          toolId,
          toolName: exposed.name,
          requestId: extra.requestId,
          sessionId: extra.sessionId,
          authInfo: extra.authInfo,
        };
        const request = toolRunRequestSchema.parse({
          runId: options.runId?.(call),
          actorId: options.actorId === undefined ? extra.authInfo?.clientId : valueOf(options.actorId, call),
          correlationId:
            options.correlationId === undefined ? extra.sessionId : valueOf(options.correlationId, call),
          metadata: valueOf(options.metadata, call),
          arguments: JSON.stringify(args ?? {}),
        });
        try {
          return toolResultOf(callResultOf(await runtime.run(toolId, request, { signal: extra.signal })));
        } catch (error) {
          const rejected = rejectionOf(toolId, error);
          if (rejected) return toolResultOf(rejected);
          throw error;
        }
      }) as never,
    );
  }
  return server;
}
