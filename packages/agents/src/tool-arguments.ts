import { OperationError } from '@corekit/abstractions';
import type { ApprovalRequest, AgentToolExecutor, RegisteredAgentTool } from './tool-definitions';

const argumentsInvalid = 'AGENT_TOOL_ARGUMENTS_INVALID';

/**
 * Parses the request's `arguments` string as JSON and validates it against the executor's schema. A
 * failure is `invalid-input` (400) whose details name the paths and rules at fault, never the values.
 */
export function parseArguments(executor: AgentToolExecutor, text: string, maxLength: number): unknown {
  if (text.length > maxLength) {
    throw new OperationError(
      'invalid-input',
      argumentsInvalid,
      `arguments are longer than MaxArgumentsLength ${maxLength}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OperationError('invalid-input', argumentsInvalid, 'arguments must be a JSON text');
  }
  const checked = executor.argumentSchema.safeParse(parsed);
  if (!checked.success) {
    const issues = checked.error.issues.slice(0, 20).map((issue) => ({
      path: issue.path.map(String).join('.') || '(root)',
      code: issue.code,
    }));
    throw new OperationError(
      'invalid-input',
      argumentsInvalid,
      `arguments do not match the schema of tool "${executor.toolId}": ${issues.map((issue) => `${issue.path} (${issue.code})`).join(', ')}`,
      { issues },
    );
  }
  return checked.data;
}

/** Evaluates the tool's approval policy; a policy that throws requires approval. */
export async function needsApproval(tool: RegisteredAgentTool, request: ApprovalRequest): Promise<boolean> {
  const policy = tool.approval ?? 'not-required';
  if (policy === 'required') return true;
  if (policy === 'not-required') return false;
  try {
    return (await policy(request)) === true;
  } catch {
    return true;
  }
}
