export { addAgents, agentsRegistrationKey } from './add-agents';
export type { AddAgentsOptions, AgentsRegistration, AgentToolRuntime } from './add-agents';
export { agenticRuntimeOptionsSchema, agentsSectionPath } from './agents-options';
export type { AgenticRuntimeOptions, AgenticRuntimeOptionsInput } from './agents-options';
export { defineAgentExecutor, AgentToolError } from './tool-definitions';
export type {
  AgentToolDefinition,
  AgentToolExecutor,
  AgentToolExecutionContext,
  ApprovalPolicy,
  ApprovalRequest,
  RegisteredAgentTool,
} from './tool-definitions';
export {
  agentToolExecutionResultSchema,
  agentToolRunSchema,
  toolRunRequestSchema,
  runOutcomes,
} from './run-model';
export type { AgentToolExecutionResult, AgentToolRun, RunOutcome, ToolRunRequest } from './run-model';
export { agentErrorCodes } from './run-service';
export type { ApprovalDecision } from './run-service';
export { attemptErrorCodes } from './attempt-runner';
export {
  agentRunResourceKind,
  agentToolResourceKind,
  approvalPolicyName,
  runPolicyName,
} from './agent-operations';
export { agentEventIds } from './agent-telemetry';
export { runStoreName } from './run-store';
export { runtimeOf, exposedTools, defaultToolName, modelToolName } from './model-tools/agent-tool-source';
export type { AgentToolSource, ExposedAgentTool } from './model-tools/agent-tool-source';
export { callResultOf, rejectionOf } from './model-tools/tool-results';
export type { AgentToolCallResult } from './model-tools/tool-results';
