import type { input as ZodInput, output as ZodOutput, ZodType } from 'zod';
import type { ConfigurationReader } from './configuration';
import { OperationError, type ErrorKind } from './pack/error-kinds';
import { defineExtensionKey } from './pack/extension-key';
import type { Logger } from './logging';
import type { RestAuthoringPolicyDeclaration } from './rest-publication';
import type { BehaviorAuthorization } from './pack/operations';
import type { AuthorizationResource } from './pack/authorization';

/**
 * What a behavior handler receives besides its input. Transport neutral: the same handler answers REST today
 * and the GraphQL, gRPC and JSON-RPC adapters later.
 */
export interface BehaviorContext {
  /** The module that owns the behavior. */
  readonly moduleId: string;
  readonly behaviorId: string;
  /** The transport that invoked the behavior: `rest`, `graphql`, `grpc`, `json-rpc`, or `in-process` for direct calls. */
  readonly transport: string;
  /** For REST: the id of the published endpoint (its candidate id); null for transports without endpoints. */
  readonly endpointId: string | null;
  readonly configuration: ConfigurationReader;
  /** Structured logger, redacted of every registered secret. */
  readonly logger: Logger;
  /** Aborted when the caller goes away (an HTTP client disconnects) or the host shuts down. */
  readonly signal: AbortSignal;
}

/**
 * A named, transport-neutral operation of a module: a zod input schema, a zod output schema and a handler.
 * Transports validate the input before the handler runs (invalid input never reaches it) and validate the
 * handler's answer against `output` (unknown fields are stripped; an answer that does not match is a server
 * error, never sent). Publishing it over REST is a separate declaration (`ModuleDefinition.rest`).
 */
export interface BehaviorDefinition<
  TInputSchema extends ZodType = ZodType,
  TOutputSchema extends ZodType = ZodType,
> {
  /**
   * Unique across the engine (modules share one namespace): letters, digits, `.`, `_`, `-`; by convention
   * `<resource>.<action>` (`orders.get`), which is what `restProfile` shorthand looks for.
   */
  readonly id: string;
  readonly displayName?: string;
  /** Shown as the summary of every endpoint that publishes the behavior unless the endpoint names its own. */
  readonly description?: string;
  readonly input: TInputSchema;
  readonly output: TOutputSchema;
  /**
   * Behavior-level REST authoring policy: which authoring styles may publish this behavior, which one is
   * preferred, and what happens when several candidates would publish. Default: every style allowed, none
   * preferred, every candidate publishes.
   */
  readonly restAuthoring?: RestAuthoringPolicyDeclaration;
  /**
   * Who may call the behavior, on every transport alike (REST, server-sent events, WebSocket, GraphQL,
   * JSON-RPC, gRPC): `required` asks the host's authorizer with `policy` before the input is read (401/403 or
   * the transport's equivalent, and the handler never runs); `anonymous` or left out serves every caller.
   */
  readonly authorization?: BehaviorAuthorization;
  /**
   * What a call acts on (its tenant, kind, record id), resolved from the input as it arrived (before validation,
   * so read it defensively): every transport asks the host's authorizer with it (`AuthorizationRequest.resource`),
   * as operations do (docs/adr/0001-one-callable.md). Throw a `BehaviorError('invalid-input', ...)` for an input
   * that names its resource ambiguously. Left out: the authorizer is asked without a resource.
   */
  readonly authorizationResource?: (
    input: unknown,
  ) => AuthorizationResource | undefined | Promise<AuthorizationResource | undefined>;
  /** Runs with validated input; throw a `BehaviorError` for expected failures (not found, conflict...). */
  handler(
    input: ZodOutput<TInputSchema>,
    context: BehaviorContext,
  ): ZodInput<TOutputSchema> | Promise<ZodInput<TOutputSchema>>;
}

/**
 * Declares a behavior. Pure: it checks nothing and registers nothing (the engine validates every behavior
 * when it is built), it only gives the handler its input and output types from the schemas.
 */
export function defineBehavior<TInputSchema extends ZodType, TOutputSchema extends ZodType>(
  definition: BehaviorDefinition<TInputSchema, TOutputSchema>,
): BehaviorDefinition<TInputSchema, TOutputSchema> {
  return Object.freeze({ ...definition });
}

/** The kinds of expected behavior failures: the one error-kind table of the pack contract (`errorKindStatus`). */
export type BehaviorErrorKind = ErrorKind;

/**
 * An expected failure of a behavior, with a stable `code` (`ORDER_NOT_FOUND`) and a message that is safe to
 * show to the caller. Any other error a handler throws is a server error whose message is never shown.
 */
export class BehaviorError extends OperationError {
  constructor(kind: BehaviorErrorKind, code: string, message: string, details: Record<string, unknown> = {}) {
    super(kind, code, message, details);
    this.name = 'BehaviorError';
  }
}

/** Stable codes of the failures the engine raises around a behavior call, whatever the transport. */
export const behaviorErrorCodes = {
  /** The input did not match the behavior's input schema; `details.errors` lists `{ path, message }`. */
  inputInvalid: 'BEHAVIOR_INPUT_INVALID',
  /** The handler answered something its output schema rejects: a defect of the module, reported as a server error. */
  outputInvalid: 'BEHAVIOR_OUTPUT_INVALID',
  /** The engine is not Started, so the module that owns the behavior may not be ready. */
  unavailable: 'BEHAVIOR_UNAVAILABLE',
} as const;

/** How a transport calls a behavior. */
export interface BehaviorInvocation {
  /** `rest`, `graphql`, `grpc`, `json-rpc` or `in-process`. */
  readonly transport: string;
  /** The published endpoint's id, for REST. */
  readonly endpointId?: string | null;
  /** Aborts the handler's work when the caller goes away. */
  readonly signal?: AbortSignal;
}

/** A registered behavior and the module that owns it. */
export interface RegisteredBehavior {
  readonly moduleId: string;
  readonly behavior: BehaviorDefinition;
}

/** Typed key through which transports call behaviors: `engine.resolve(behaviorRuntimeKey)`. */
export const behaviorRuntimeKey = defineExtensionKey<BehaviorRuntime>(
  '@corekit/abstractions/behaviors',
  'runs a registered behavior for any transport',
);

/** The value of the `corekit.behaviors` extension: one way for every transport to run a behavior. */
export interface BehaviorRuntime {
  /** Every behavior of every code module, in registration order. */
  behaviors(): readonly RegisteredBehavior[];
  /**
   * Validates `input` against the input schema, runs the handler, and validates its answer against the output
   * schema (returning the parsed answer). Throws BehaviorError `invalid-input` (code BEHAVIOR_INPUT_INVALID,
   * `details.errors`), BehaviorError `unavailable` while the engine is not Started, CoreError
   * BEHAVIOR_OUTPUT_INVALID for an answer the schema rejects, or whatever the handler threw.
   */
  invoke(behaviorId: string, input: unknown, invocation: BehaviorInvocation): Promise<unknown>;
}
