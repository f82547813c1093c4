import { CoreError } from '@corekit/abstractions';
import type { ZodType } from 'zod';

/** What an approval policy function is asked: who runs which tool with which (validated) arguments. */
export interface ApprovalRequest {
  readonly toolId: string;
  readonly actorId: string;
  readonly arguments: unknown;
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * Whether a run needs an explicit approval decision before it executes: `required`, `not-required`
 * (default), or a function of the actor and arguments answering true when approval is required. A function
 * that throws counts as `required` (the run waits rather than runs unchecked).
 */
export type ApprovalPolicy =
  'required' | 'not-required' | ((request: ApprovalRequest) => boolean | Promise<boolean>);

/**
 * A tool a module declares. The references are checked when the engine is built: `sourceModuleId` must be a
 * registered module, every capability key must be offered by a module, `executionGraphId` and
 * `hostedExecutionId` must name contributed catalog entries. The engine cannot check that the executor does
 * what the description says.
 */
export interface AgentToolDefinition {
  readonly id: string;
  readonly displayName: string;
  readonly description: string;
  readonly capabilityKeys?: readonly string[];
  readonly executionGraphId?: string;
  readonly hostedExecutionId?: string;
  readonly tags?: readonly string[];
  /** Default `not-required`. */
  readonly approval?: ApprovalPolicy;
}

/** A tool as the pack keeps it: the definition plus the module that declared it. */
export interface RegisteredAgentTool extends AgentToolDefinition {
  readonly sourceModuleId: string;
}

/** What an executor receives besides its validated arguments. */
export interface AgentToolExecutionContext {
  readonly toolId: string;
  readonly runId: string;
  /** 1 for the first attempt of this execution, then 2, 3... (offset by the request's `attempt`). */
  readonly attempt: number;
  readonly actorId: string;
  readonly correlationId: string;
  readonly metadata: Readonly<Record<string, string>>;
  /** Aborted at the timeout, when the caller goes away or when the engine stops: stop promptly then. */
  readonly signal: AbortSignal;
  /** The attempt's timeout in milliseconds (`ExecutionTimeoutMilliseconds`). */
  readonly timeoutMs: number;
}

/**
 * The code that runs a tool. `argumentSchema` validates the parsed `arguments` JSON before `execute` is
 * called (a mismatch answers 400 and runs nothing). `execute` answers any JSON-serialisable value; a throw is
 * a failed attempt (retried when attempts remain, unless it is an `AgentToolError` with `retryable: false`).
 */
export interface AgentToolExecutor<TArguments = unknown, TOutput = unknown> {
  readonly toolId: string;
  readonly argumentSchema: ZodType<TArguments>;
  execute(args: TArguments, context: AgentToolExecutionContext): Promise<TOutput> | TOutput;
}

/** Declares an executor with its argument types inferred from the schema. */
export function defineAgentExecutor<TArguments, TOutput>(
  executor: AgentToolExecutor<TArguments, TOutput>,
): AgentToolExecutor<TArguments, TOutput> {
  return Object.freeze({ ...executor });
}

/** An executor failure with a stable code; `retryable: false` ends the run without further attempts. */
export class AgentToolError extends CoreError {
  readonly retryable: boolean;

  constructor(code: string, message: string, options: { retryable?: boolean } = {}) {
    super(code, message);
    this.name = 'AgentToolError';
    this.retryable = options.retryable ?? true;
  }
}
