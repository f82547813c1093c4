import { errorKindStatus, isOperationError, type ErrorKind } from '@corekit/abstractions';

/** The standard JSON-RPC 2.0 error codes. */
export const jsonRpcStandardCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/**
 * The JSON-RPC error code of every error kind (one entry per kind of the shared table, so a new kind does
 * not compile until it is mapped). Invalid input is the standard -32602; the others sit in the
 * implementation-defined server range -32000..-32099, numbered after their HTTP status (404 → -32004,
 * 503 → -32053). `data.kind`, `data.code` and `data.status` carry the exact kind, the stable code and the
 * HTTP status of `errorKindStatus`.
 */
export const jsonRpcErrorCodes: Readonly<Record<ErrorKind, number>> = Object.freeze({
  'invalid-input': jsonRpcStandardCodes.invalidParams,
  unauthenticated: -32001,
  forbidden: -32003,
  'not-found': -32004,
  'not-active': -32004,
  conflict: -32009,
  replay: -32009,
  'precondition-failed': -32012,
  'too-large': -32013,
  unavailable: -32053,
});

/** A JSON-RPC error object. */
export interface JsonRpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: Record<string, unknown>;
}

/**
 * The error object of an expected failure (its details, as REST problem details carry them, plus `code`,
 * `kind` and `status`), or null when `error` is not one (a server error, whose message is never sent).
 */
export function applicationError(error: unknown): JsonRpcError | null {
  if (!isOperationError(error)) return null;
  const details = error.details as Record<string, unknown> | undefined;
  return {
    code: jsonRpcErrorCodes[error.kind],
    message: error.message,
    data: { ...details, code: error.code, kind: error.kind, status: errorKindStatus[error.kind] },
  };
}

/** A standard error with a stable `data.code`. */
export function standardError(code: number, message: string, stableCode: string): JsonRpcError {
  return { code, message, data: { code: stableCode } };
}
