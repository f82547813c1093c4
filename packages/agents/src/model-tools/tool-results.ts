import { isOperationError } from '@corekit/abstractions';
import type { AgentToolExecutionResult } from '../run-model';

/**
 * What the model reads back from a tool call. `status` is `succeeded` (with `output`; `duplicate` when an
 * idempotent repeat answered the first run's output), `approval-required` (the run waits for an operator and
 * has not executed), `denied`, `failed` (with the redacted `error`) or `rejected` (the arguments failed the
 * tool's schema in the run service). `runId` names the run in `/engine/agent-tool-runs`.
 */
export interface AgentToolCallResult {
  readonly status: 'succeeded' | 'approval-required' | 'denied' | 'failed' | 'rejected';
  readonly toolId: string;
  readonly runId: string | null;
  readonly output?: unknown;
  readonly duplicate?: boolean;
  readonly error?: { readonly code: string; readonly message: string };
  readonly message?: string;
}

/** Maps a run result to what the model reads; only `succeeded` and duplicates carry the output. */
export function callResultOf(result: AgentToolExecutionResult): AgentToolCallResult {
  const base = { toolId: result.toolId, runId: result.runId };
  switch (result.outcome) {
    case 'succeeded':
      return { ...base, status: 'succeeded', output: result.output };
    case 'skipped':
      return { ...base, status: 'succeeded', output: result.output, duplicate: true };
    case 'approval-required':
      return {
        ...base,
        status: 'approval-required',
        message: `Run ${result.runId} waits for an operator's approval; the tool has not run yet.`,
      };
    case 'denied':
      return {
        ...base,
        status: 'denied',
        message: `Run ${result.runId} was denied${result.approval?.reason ? `: ${result.approval.reason}` : ''}.`,
      };
    default:
      return {
        ...base,
        status: 'failed',
        error: result.error ?? { code: 'AGENT_TOOL_RUN_NOT_FINISHED', message: `outcome ${result.outcome}` },
      };
  }
}

/**
 * A thrown run-service error the model can act on (arguments rejected by the tool's schema) becomes a
 * `rejected` result; any other error (unknown tool, execution not active, conflicts) is answered undefined so
 * the caller rethrows it.
 */
export function rejectionOf(toolId: string, error: unknown): AgentToolCallResult | undefined {
  if (!isOperationError(error) || error.kind !== 'invalid-input') return undefined;
  return { toolId, runId: null, status: 'rejected', error: { code: error.code, message: error.message } };
}
