import { CoreError } from '../errors';

/**
 * The transport-neutral kinds of expected failure of an operation or a behavior. One table
 * (`errorKindStatus`) maps them to HTTP statuses; the GraphQL, gRPC and JSON-RPC adapters map the same kinds
 * to their own codes.
 */
export const errorKinds = [
  'invalid-input',
  'unauthenticated',
  'forbidden',
  'not-found',
  'not-active',
  'conflict',
  'replay',
  'precondition-failed',
  'too-large',
  'unavailable',
] as const;

export type ErrorKind = (typeof errorKinds)[number];

/**
 * HTTP status of every error kind: invalid input 400, unauthenticated 401, forbidden 403, not-found and
 * not-active 404 (a surface that is not active answers as if absent), conflict and replay 409, precondition
 * failed 412, too large 413, unavailable 503.
 */
export const errorKindStatus: Readonly<Record<ErrorKind, number>> = Object.freeze({
  'invalid-input': 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  'not-active': 404,
  conflict: 409,
  replay: 409,
  'precondition-failed': 412,
  'too-large': 413,
  unavailable: 503,
});

/**
 * An expected failure with a kind, a stable `code` (`AGENT_TOOL_NOT_FOUND`) and a message safe to show the
 * caller. Any other error a handler throws is a server error whose message is never shown.
 */
export class OperationError extends CoreError {
  readonly kind: ErrorKind;

  constructor(kind: ErrorKind, code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
    this.name = 'OperationError';
    this.kind = kind;
  }
}

/** True for an OperationError (or a BehaviorError, which is one), across package copies. */
export function isOperationError(error: unknown): error is OperationError {
  if (error instanceof OperationError) return true;
  if (!(error instanceof Error)) return false;
  const { kind, code } = error as Error & { kind?: unknown; code?: unknown };
  return (
    typeof kind === 'string' && (errorKinds as readonly string[]).includes(kind) && typeof code === 'string'
  );
}
