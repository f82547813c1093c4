import type { OperationPrincipal } from './operations';

/** What the host's authorizer is asked: one request, and the named policy it must satisfy (if any). */
export interface AuthorizationRequest {
  readonly method: string;
  /** The request path without the query string. */
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The named policy of the operation, or null for the host's default. */
  readonly policy: string | null;
  /** The operation id, or null for a host route. */
  readonly operationId: string | null;
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
