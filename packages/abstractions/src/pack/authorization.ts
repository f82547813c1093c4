import type { IncomingMessage } from 'node:http';
import { OperationError } from './error-kinds';
import type { BrowserSessionPrincipal } from './browser-sessions';
import type { BehaviorAuthorization, OperationPrincipal } from './operations';

/**
 * What an operation acts on, known before it runs (resolved from the request's route, query and body before
 * anything is read or changed), so a host can decide per tenant or per record and not only per policy. Every
 * field is optional: an operation names what it knows. A host that scopes its credentials to tenants compares
 * `tenantId` with the credential's tenants; absent `tenantId` means the operation named no tenant (its input
 * is then refused before it runs, or it is not tenant-scoped).
 */
export interface AuthorizationResource {
  /**
   * The tenant the operation reads or changes. `allTenants` (`*`, never a valid identifier) when it spans
   * every tenant (a read without a tenant filter): grant it only to a caller allowed in all tenants.
   */
  readonly tenantId?: string;
  /** What kind of thing it acts on, a stable name chosen by the operation's owner (`tenant-invitation`). */
  readonly kind?: string;
  /** The record's id when the request names one (an invitation id); absent for a create or a list. */
  readonly id?: string;
  /**
   * Who asked for the record, when the operation acts on one that records it (the principal subject that
   * requested an agent tool run, else the actor it named): a policy deciding on the record compares it with
   * the caller's own subject to refuse a decision by the requester (separation of duties). Absent when the
   * record is unknown or records no requester.
   */
  readonly requestedBy?: string;
}

/**
 * The `tenantId` of an AuthorizationResource spanning every tenant. Identifiers cannot hold `*`, so it never
 * collides with a tenant; an authorizer checking `credentialTenants.includes(resource.tenantId)` refuses it
 * to every credential scoped to named tenants.
 */
export const allTenants = '*';

/** What the host's authorizer is asked: one request, and the named policy it must satisfy (if any). */
export interface AuthorizationRequest {
  readonly method: string;
  /** The request path without the query string. */
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The named policy of the operation, or null for the host's default. */
  readonly policy: string | null;
  /** The operation id (or behavior id), or null for a host route. */
  readonly operationId: string | null;
  /**
   * What the operation acts on, when it declares one (`OperationDefinition.authorizationResource`); absent
   * for host routes, behaviors and operations that do not say.
   */
  readonly resource?: AuthorizationResource;
  /**
   * Present when the request carries a valid browser session (a cookie issued at sign-in, see
   * `BrowserSessionAuthority`) and no `Authorization` header: the principal this authorizer granted at sign-in.
   * Decide about it as about that credential (allow the subject you allowed then, refuse it if it was revoked).
   * An authorizer that ignores it refuses every session.
   */
  readonly session?: BrowserSessionPrincipal;
  /**
   * The HTTP request itself, when the call arrived over HTTP on the host (REST, server-sent events, WebSocket,
   * GraphQL, JSON-RPC); absent for a transport with a server of its own (gRPC: `headers` are its metadata).
   */
  readonly raw?: IncomingMessage;
}

/**
 * The authorizer's answer. `true` allows with no principal; `false` refuses with 403. An object says which:
 * `unauthenticated` (no or invalid credentials, 401) or `forbidden` (identified but not allowed, 403).
 */
export type AuthorizationDecision =
  | boolean
  | { readonly outcome: 'allowed'; readonly principal?: Partial<OperationPrincipal> }
  | { readonly outcome: 'unauthenticated' | 'forbidden'; readonly reason?: string };

/**
 * How a host plugs in its authentication scheme (a bearer token, a session, mTLS): one function, asked for
 * every guarded request with the operation's named policy. A throw counts as a refusal.
 */
export type Authorizer = (
  request: AuthorizationRequest,
) => AuthorizationDecision | Promise<AuthorizationDecision>;

/** Stable codes of a behavior call the authorizer refused, whatever the transport. */
export const behaviorAuthorizationCodes = {
  /** No credential the host accepts (or the host has no authorizer): 401 and its equivalents. */
  unauthenticated: 'BEHAVIOR_UNAUTHENTICATED',
  /** The authorizer refused the caller: 403 and its equivalents. */
  forbidden: 'BEHAVIOR_FORBIDDEN',
} as const;

/** The codes a refusal carries: behaviors keep theirs, operations the ones their REST routes answer. */
export interface CallAuthorizationCodes {
  readonly unauthenticated: string;
  readonly forbidden: string;
}

/** What `authorizeCall` authorizes: a behavior or an operation seen as a callable. */
export interface AuthorizedCall {
  readonly id: string;
  readonly authorization?: BehaviorAuthorization;
  /** `Behavior` or `Operation`: how refusal messages name it. Default `Behavior`. */
  readonly noun?: string;
}

/**
 * The one authorization step of a call, for every transport (docs/adr/0001-one-callable.md): a callable
 * declaring `authorization: { mode: 'required', policy }` asks `authorizer` with its id, the policy and the
 * resource in `request`; anything but `true` or `{ outcome: 'allowed' }` throws an OperationError
 * (`unauthenticated` when no authorizer is there or it says so, `forbidden` otherwise, a throw included), which
 * each transport maps like any other error kind. Answers the principal (null for a call without a requirement,
 * which never asks).
 */
export async function authorizeCall(
  authorizer: Authorizer | undefined,
  call: AuthorizedCall,
  request: Omit<AuthorizationRequest, 'policy' | 'operationId'>,
  codes: CallAuthorizationCodes = behaviorAuthorizationCodes,
): Promise<OperationPrincipal | null> {
  if (call.authorization?.mode !== 'required') return null;
  const policy = call.authorization.policy ?? null;
  const noun = call.noun ?? 'Behavior';
  const refused = (kind: 'unauthenticated' | 'forbidden', reason?: string) =>
    new OperationError(
      kind,
      codes[kind],
      reason ??
        (kind === 'unauthenticated'
          ? `${noun} ${call.id} requires credentials the host accepts`
          : `The host refused this call of ${noun.toLowerCase()} ${call.id}${policy ? ` (policy ${policy})` : ''}`),
    );
  if (!authorizer) {
    throw refused(
      'unauthenticated',
      `${noun} ${call.id} requires authorization and this host has no authorizer`,
    );
  }
  let decision: AuthorizationDecision;
  try {
    decision = await authorizer({ ...request, policy, operationId: call.id });
  } catch {
    decision = false;
  }
  if (decision === true) return { subject: null, policy, claims: {} };
  if (decision && typeof decision === 'object') {
    if (decision.outcome === 'allowed') {
      return {
        subject: decision.principal?.subject ?? null,
        policy: decision.principal?.policy ?? policy,
        claims: decision.principal?.claims ?? {},
      };
    }
    throw refused(decision.outcome, decision.reason);
  }
  throw refused('forbidden');
}

/**
 * The authorization step of a behavior call.
 * @deprecated Use `authorizeCall` (the same step for behaviors and operations), or let the engine's callable
 * runtime (`callableRuntimeKey`) authorize: it also resolves the callable's resource. Kept for one minor release.
 */
export function authorizeBehaviorCall(
  authorizer: Authorizer | undefined,
  behavior: { readonly id: string; readonly authorization?: BehaviorAuthorization },
  request: Omit<AuthorizationRequest, 'policy' | 'operationId'>,
): Promise<OperationPrincipal | null> {
  return authorizeCall(authorizer, behavior, request);
}
