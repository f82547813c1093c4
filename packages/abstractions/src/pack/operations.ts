import type { output as ZodOutput, input as ZodInput, ZodType } from 'zod';
import type { ConfigurationReader } from '../configuration';
import type { Logger } from '../logging';
import type { Engine } from '../engine';
import type { AuthorizationResource } from './authorization';
import type { ErrorKind } from './error-kinds';

export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation. `anonymous` serves every caller (a proof file a verifier fetches). `required`
 * asks the host's authorizer, naming `policy` when set: the host answers 401 for a caller it cannot
 * identify (or when it has no authorizer at all) and 403 for one it refuses, and the handler never runs,
 * whatever the host's exposure settings. Left out: an operation under `/engine` follows the host's policy
 * for its `/engine` surfaces (the web host's `Engine:Web:EngineRoutes:Exposure`: guarded in production,
 * open in development); any other path is anonymous. `operator` applies that `/engine` policy to another
 * path. Declare `required` for anything that changes state and must stay guarded everywhere.
 */
export type OperationAuthorization =
  | BehaviorAuthorization
  /**
   * An operator surface outside `/engine` (a metrics route): guarded exactly when the host guards its
   * `/engine` surfaces (the web host's `Engine:Web:EngineRoutes:Exposure`), whatever the path.
   */
  | { readonly mode: 'operator' };

/**
 * Who may call a behavior, on every transport that serves it: `anonymous`, or `required` (the host's
 * authorizer, naming `policy`). Operations accept these and `operator` (a host-exposure rule that only the web
 * host's operation routes know, so a behavior never declares it).
 */
export type BehaviorAuthorization =
  { readonly mode: 'anonymous' } | { readonly mode: 'required'; readonly policy?: string };

/** What the authorizer decided, as the handler sees it. */
export interface OperationPrincipal {
  /** A stable subject id from the credential; never logged by the engine. */
  readonly subject: string | null;
  /** The named policy that allowed the call, if any. */
  readonly policy: string | null;
  readonly claims: Readonly<Record<string, unknown>>;
}

/** One more named policy a handler needs for a part of the request (a field that asks for more). */
export interface OperationAuthorizationRequirement {
  readonly policy: string;
  /**
   * What this part acts on, when it is not the operation's own resource (a read spanning tenants asking
   * about each row's tenant). Left out, the authorizer is asked about `OperationContext.resource`.
   */
  readonly resource?: AuthorizationResource;
  /**
   * A credential the caller presented in the request body rather than a header (a sign-in form): the host asks
   * its authorizer as if the request carried `Authorization: Bearer <credential>` (the request's other headers,
   * an authenticating proxy's included, stay), so the credential is judged exactly as an API client's token is.
   * Never logged. In process it is ignored (the caller is trusted).
   */
  readonly credential?: string;
}

/**
 * Asks the host's authorizer about `requirement` for the request being handled. Answers the principal when
 * allowed; throws OperationError `unauthenticated` or `forbidden` (code UNAUTHENTICATED / FORBIDDEN) when
 * refused, so the handler may answer with a code of its own.
 */
export type OperationAuthorizeFunction = (
  requirement: OperationAuthorizationRequirement,
) => Promise<OperationPrincipal>;

/** The request as an operation sees it: validated input plus the transport facts a handler may need. */
export interface OperationInput<TParams = unknown, TQuery = unknown, TBody = unknown> {
  readonly params: TParams;
  readonly query: TQuery;
  readonly body: TBody;
}

/** What a handler receives besides its input. */
export interface OperationContext {
  readonly operationId: string;
  /** `http`, `in-process`, or an adapter's transport name. */
  readonly transport: string;
  /** Request headers, lower-cased names (empty in process). */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The exact request bytes, present only for operations declared with `rawBody: true`. */
  readonly rawBody: Buffer | null;
  /**
   * The path the caller asked for, as sent (`/engine/console/`, trailing slash and all), when the transport has
   * one; null in process. For answers that depend on the exact address (redirecting a misspelt form of it).
   */
  readonly requestPath: string | null;
  /** Set when the operation required authorization and the authorizer allowed it. */
  readonly principal: OperationPrincipal | null;
  /**
   * What the operation acts on, as its `authorizationResource` resolved it once from the request (the same
   * value the host's authorizer was asked about); null when the operation declares none. Act on this, not on
   * a second reading of the input, so what runs is what was authorized.
   */
  readonly resource: AuthorizationResource | null;
  /**
   * Asks the host's authorizer about one more named policy for this same request, when what the body asks
   * needs a grant of its own (an administrator accepting on behalf, a dispatch naming its own recipient).
   * Over a transport it asks the same hook as the operation's own policy; in process (a trusted caller,
   * like `invoke` itself) it allows with the invocation's principal.
   */
  readonly authorize: OperationAuthorizeFunction;
  readonly configuration: ConfigurationReader;
  readonly logger: Logger;
  /** The running engine, for operations that report runtime state (read surfaces, status). */
  readonly engine: Engine;
  /** Aborted when the caller goes away or the host shuts down. */
  readonly signal: AbortSignal;
}

/** A non-default answer: another status, headers, or a non-JSON body (`contentType` set, `body` a string). */
export interface OperationResponse<T = unknown> {
  readonly operationResponse: true;
  readonly status: number;
  readonly body: T;
  readonly headers?: Readonly<Record<string, string>>;
  readonly contentType?: string;
}

/** Builds an OperationResponse (a handler's way to answer 202, add a header, or serve text). */
export function operationResponse<T>(
  status: number,
  body: T,
  options: { headers?: Record<string, string>; contentType?: string } = {},
): OperationResponse<T> {
  return { operationResponse: true, status, body, ...options };
}

export function isOperationResponse(value: unknown): value is OperationResponse {
  return (
    value !== null &&
    typeof value === 'object' &&
    (value as { operationResponse?: unknown }).operationResponse === true
  );
}

type Parsed<T> = T extends ZodType ? ZodOutput<T> : undefined;

/**
 * A transport-neutral action a pack, a module or an adapter declares: the web host mounts it generically
 * (validation, authorization, problem details, OpenAPI), the worker host and tests invoke it in process.
 * Input is three schemas, one per part of a request; each part left out must be empty.
 */
export interface OperationDefinition<
  TParams extends ZodType | undefined = ZodType | undefined,
  TQuery extends ZodType | undefined = ZodType | undefined,
  TBody extends ZodType | undefined = ZodType | undefined,
  TResult extends ZodType = ZodType,
> {
  /** Unique across the engine (`agents.run-tool`). */
  readonly id: string;
  readonly method: OperationMethod;
  /**
   * Absolute path with `:name` parameters (`/engine/agent-tools/:toolId/runs`). Pack operations live under
   * `/engine`; module operations under the module's own prefix; adapters under the path the spec gives them.
   */
  readonly path: string;
  /** One line for the API reference. */
  readonly summary: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  /** Path parameters, an object schema whose keys are the `:name` segments. */
  readonly params?: TParams;
  /** Query parameters, an object schema (values arrive as strings; use z.coerce for numbers). */
  readonly query?: TQuery;
  /** The JSON body (or, with `rawBody`, the body parsed by the handler itself and documented here). */
  readonly body?: TBody;
  /** Schema of the success answer; the answer is validated against it (a mismatch is a server error). */
  readonly result: TResult;
  /** Status of a success answer. Default 200. */
  readonly successStatus?: number;
  /** Documented expected failures: kind → when it happens. Used for the API reference. */
  readonly errors?: Partial<Readonly<Record<ErrorKind, string>>>;
  readonly authorization?: OperationAuthorization;
  /**
   * What the operation acts on (its tenant, kind, record id), resolved from the request before the input is
   * validated and before the handler runs, whether or not the operation is guarded: the host asks its
   * authorizer with it (`AuthorizationRequest.resource`) and hands it to the handler (`context.resource`).
   * Receives the input as it arrived (path parameters and query values as strings, the parsed JSON body, or
   * for `rawBody` operations the bytes), so read it defensively. Throw an OperationError (`invalid-input`)
   * to refuse a request that names its resource ambiguously (two different tenants): the request is then
   * answered 400 before the authorizer is asked.
   */
  readonly authorizationResource?: (
    input: OperationInput<unknown, unknown, unknown>,
  ) => AuthorizationResource | Promise<AuthorizationResource>;
  /**
   * Hand the handler the exact request bytes (`context.rawBody`) and skip JSON parsing: for signed
   * callbacks whose signature covers the raw body. `body` is then parsed by the handler.
   */
  readonly rawBody?: boolean;
  /** Largest accepted body in bytes; a larger one answers 413 before it is read whole. Default: the host's. */
  readonly maxBodyBytes?: number;
  /** Leave the operation out of the API description (still served). */
  readonly excludeFromDescription?: boolean;
  /** Keep answering while the host drains (health-like reads). Default false. */
  readonly servedWhileDraining?: boolean;
  /** Who registered it: a module id, a pack id; filled in by the engine when omitted. */
  readonly owner?: string;
  handler(
    input: OperationInput<Parsed<TParams>, Parsed<TQuery>, Parsed<TBody>>,
    context: OperationContext,
  ): Promise<ZodInput<TResult> | OperationResponse> | ZodInput<TResult> | OperationResponse;
}

/** Declares an operation; pure (validation happens at build), it only gives the handler its types. */
export function defineOperation<
  TParams extends ZodType | undefined = undefined,
  TQuery extends ZodType | undefined = undefined,
  TBody extends ZodType | undefined = undefined,
  TResult extends ZodType = ZodType,
>(
  definition: OperationDefinition<TParams, TQuery, TBody, TResult>,
): OperationDefinition<TParams, TQuery, TBody, TResult> {
  return Object.freeze({ ...definition });
}

/** How a host or test calls an operation in process. */
export interface OperationInvocation {
  readonly params?: Record<string, string>;
  readonly query?: Record<string, unknown>;
  readonly body?: unknown;
  readonly rawBody?: Buffer;
  /** The path as the caller sent it (`OperationContext.requestPath`); transports with paths pass it. */
  readonly requestPath?: string;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly principal?: OperationPrincipal | null;
  /**
   * The resource the caller (a host) already resolved and authorized; left out, the engine resolves it with
   * the operation's `authorizationResource` (in-process callers are trusted).
   */
  readonly resource?: AuthorizationResource | null;
  /**
   * The host's authorizer for further policies of this request (`OperationContext.authorize`). A transport
   * must pass it: without it, an invocation over any transport other than `in-process` is refused
   * `unauthenticated` when the handler asks.
   */
  readonly authorize?: OperationAuthorizeFunction;
  readonly transport?: string;
  readonly signal?: AbortSignal;
  /**
   * Where the invocation is traced. `'own-span'` (the default): the engine opens an INTERNAL `operation {id}`
   * span. `'request-span'`: the transport's SERVER span for this request is the active span and covers this
   * one invocation alone (an HTTP route that serves one operation); the engine sets the
   * `corekit.operation.*` attributes on it instead of opening a child span that would repeat it. A transport
   * that serves several operations per request (a batch) leaves it out.
   */
  readonly tracing?: 'own-span' | 'request-span';
}

/** The answer of an in-process invocation. */
export interface OperationOutcome {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  readonly contentType: string;
}

/** The registered operations of a built engine. */
export interface OperationRegistry {
  list(): readonly OperationDefinition[];
  find(id: string): OperationDefinition | undefined;
  /**
   * Validates the input, runs the handler and validates the answer. Throws OperationError `invalid-input`
   * (code OPERATION_INPUT_INVALID with `details.errors`), `unavailable` while the engine is not Started,
   * `not-found` for an unknown id, or whatever the handler threw. Authorization is the caller's job (the
   * host); in-process callers are trusted.
   */
  invoke(id: string, invocation?: OperationInvocation): Promise<OperationOutcome>;
}

/** Stable codes of the failures the engine raises around an operation call. */
export const operationErrorCodes = {
  inputInvalid: 'OPERATION_INPUT_INVALID',
  resultInvalid: 'OPERATION_RESULT_INVALID',
  unavailable: 'OPERATION_UNAVAILABLE',
  notFound: 'OPERATION_NOT_FOUND',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
} as const;
