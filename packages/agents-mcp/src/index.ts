export { createAgentToolsMcpServer } from './create-agent-tools-mcp-server';
export type { AgentToolsMcpServerOptions, McpToolCall } from './create-agent-tools-mcp-server';
export { defaultToolName } from './agent-tool-source';
export type { AgentToolSource } from './agent-tool-source';
export type { AgentToolCallResult } from './tool-results';
