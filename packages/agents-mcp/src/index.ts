export { createAgentToolsMcpServer } from './create-agent-tools-mcp-server';
export type { AgentToolsMcpServerOptions, McpToolCall } from './create-agent-tools-mcp-server';
export { mcpToolName } from './create-agent-tools-mcp-server';
export type { AgentToolSource, AgentToolCallResult } from '@corekit/agents';
