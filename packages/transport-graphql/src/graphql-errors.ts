import { GraphQLError } from 'graphql';
import { errorKindStatus, isOperationError, type ErrorKind } from '@corekit/abstractions';

/**
 * The GraphQL `extensions.code` of every error kind (one entry per kind of the shared table, so a new kind
 * does not compile until it is mapped), in the spelling GraphQL servers commonly use. `extensions.kind`,
 * `extensions.errorCode` (the stable code such as ORDER_NOT_FOUND) and `extensions.status` (the HTTP status of
 * `errorKindStatus`) carry the rest.
 */
export const graphQlErrorCodes: Readonly<Record<ErrorKind, string>> = Object.freeze({
  'invalid-input': 'BAD_USER_INPUT',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  'not-found': 'NOT_FOUND',
  'not-active': 'NOT_FOUND',
  conflict: 'CONFLICT',
  replay: 'CONFLICT',
  'precondition-failed': 'PRECONDITION_FAILED',
  'too-large': 'PAYLOAD_TOO_LARGE',
  unavailable: 'SERVICE_UNAVAILABLE',
});

/** The code of an unexpected failure, whose message is never sent. */
export const internalErrorCode = 'INTERNAL_SERVER_ERROR';

/** The GraphQL error for what a behavior threw; `unexpected` is called for errors that are not expected failures. */
export function toGraphQlError(error: unknown, unexpected: (error: unknown) => void): GraphQLError {
  if (isOperationError(error)) {
    return new GraphQLError(error.message, {
      extensions: {
        ...(error.details as Record<string, unknown>),
        code: graphQlErrorCodes[error.kind],
        errorCode: error.code,
        kind: error.kind,
        status: errorKindStatus[error.kind],
      },
    });
  }
  unexpected(error);
  return new GraphQLError('Internal error; the host log has the details', {
    extensions: { code: internalErrorCode },
  });
}

/** Longest error message sent, in characters: messages that quote the query or a variable are cut here. */
export const maxErrorMessageLength = 500;

/**
 * The error as sent: its message cut to `maxErrorMessageLength` (GraphQL and variable coercion messages quote
 * the offending input, which may be a megabyte). Locations, path and extensions are kept.
 */
export function boundedError(error: GraphQLError | Error): GraphQLError | Error {
  if (error.message.length <= maxErrorMessageLength) return error;
  const message = `${error.message.slice(0, maxErrorMessageLength)}… (cut: ${error.message.length} characters)`;
  if (!(error instanceof GraphQLError)) return new Error(message);
  return new GraphQLError(message, {
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: error.extensions,
  });
}
