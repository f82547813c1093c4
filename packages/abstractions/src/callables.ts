import type { ZodType } from 'zod';
import { defineExtensionKey } from './pack/extension-key';
import type { AuthorizationRequest, AuthorizationResource, Authorizer } from './pack/authorization';
import type { BehaviorAuthorization } from './pack/operations';

/**
 * Who may call a callable, on every transport alike: `anonymous` (also when left out), or `required` (the
 * host's authorizer, naming `policy` when set). An operation that declares none, or `operator`, is a
 * `required` callable with no named policy: the web host's exposure rule for `/engine` is a rule of its REST
 * routes only, so every other transport fails closed.
 */
export type CallableAuthorization = BehaviorAuthorization;

/**
 * One named, transport-neutral action (docs/adr/0001-one-callable.md): a behavior, or an operation seen without
 * its HTTP shape. Every transport serves it the same way: the resource resolved once from the input, the
 * authorizer asked once with the policy and that resource, the input validated once against `input`, the
 * handler run, the answer validated against `output`.
 */
export interface CallableDefinition {
  /** Unique across the engine (behaviors and operations share one namespace). */
  readonly id: string;
  readonly displayName?: string;
  /** One line for the transports' descriptions (GraphQL field, proto comment). */
  readonly description?: string;
  /**
   * The one input schema. A behavior's own; an operation's is the object `{ params, query, body }` with exactly
   * the parts it declares, each with the schema REST validates.
   */
  readonly input: ZodType;
  /** The answer's schema (an operation's `result`). */
  readonly output: ZodType;
  /** Left out: anonymous (see CallableAuthorization for what an operation becomes). */
  readonly authorization?: CallableAuthorization;
  /**
   * What the call acts on (its tenant), resolved from the input as it arrived, before validation: the
   * authorizer is asked with it. Throw an OperationError (`invalid-input`) for an ambiguous input.
   */
  readonly authorizationResource?: (
    input: unknown,
  ) => AuthorizationResource | undefined | Promise<AuthorizationResource | undefined>;
}

/** A callable, where it comes from and who owns it. */
export interface RegisteredCallable {
  /** `behavior` (a module's, published over REST by governance) or `operation` (its own HTTP shape). */
  readonly kind: 'behavior' | 'operation';
  /** The module id of a behavior; the owner (pack, module) of an operation. */
  readonly owner: string;
  readonly callable: CallableDefinition;
}

/** How a transport calls a callable. */
export interface CallableInvocation {
  /** `graphql`, `grpc`, `json-rpc`, `server-sent-events`, `websocket`, or `in-process` (trusted, never asked). */
  readonly transport: string;
  /**
   * The host's authorizer (`TransportMountContext.authorize`). A transport other than `in-process` that has
   * none gets every guarded call refused (fail closed).
   */
  readonly authorizer?: Authorizer;
  /** The request facts the authorizer is asked with (path, headers, the raw HTTP request when there is one). */
  readonly request?: Omit<AuthorizationRequest, 'policy' | 'operationId' | 'resource'>;
  /** Aborts the handler's work when the caller goes away. */
  readonly signal?: AbortSignal;
  /** For REST: the id of the published endpoint a behavior is called through (`BehaviorContext.endpointId`). */
  readonly endpointId?: string | null;
}

/** The callable registry of a built engine: the one way every transport runs a behavior or an operation. */
export interface CallableRuntime {
  /** Every behavior and every operation a transport can serve (raw-body operations are HTTP-only). */
  callables(): readonly RegisteredCallable[];
  /**
   * Resolves the resource, authorizes (unless `in-process`), validates the input, runs the handler (one span)
   * and validates the answer. Throws an OperationError: `not-found` (CALLABLE_NOT_FOUND), `unauthenticated` /
   * `forbidden`, `invalid-input`, `unavailable` while the engine is not Started, or what the handler threw.
   */
  invoke(id: string, input: unknown, invocation: CallableInvocation): Promise<unknown>;
}

/** Stable codes of the callable runtime's own failures. */
export const callableErrorCodes = {
  /** No behavior or operation has the id. */
  notFound: 'CALLABLE_NOT_FOUND',
} as const;

/** Typed key of the engine's callable runtime: `engine.resolve(callableRuntimeKey)`. */
export const callableRuntimeKey = defineExtensionKey<CallableRuntime>(
  '@corekit/abstractions/callables',
  'runs any behavior or operation for any transport, with one authorization and validation path',
);
