export { agentToolsForAiSdk } from './agent-tools-for-ai-sdk';
export type { AgentToolsForAiSdkOptions, AiSdkToolCall } from './agent-tools-for-ai-sdk';
export { defaultToolName } from '@corekit/agents';
export type { AgentToolSource, AgentToolCallResult } from '@corekit/agents';
