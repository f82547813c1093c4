export { agentToolsForAiSdk } from './agent-tools-for-ai-sdk';
export type { AgentToolsForAiSdkOptions, AiSdkToolCall } from './agent-tools-for-ai-sdk';
export { defaultToolName } from './agent-tool-source';
export type { AgentToolSource } from './agent-tool-source';
export type { AgentToolCallResult } from './tool-results';
