import { status, type ServiceError } from '@grpc/grpc-js';
import { Metadata } from '@grpc/grpc-js';
import { errorKindStatus, isOperationError, type ErrorKind } from '@corekit/abstractions';

/**
 * The gRPC status of every error kind (one entry per kind of the shared table, so a new kind does not
 * compile until it is mapped). Trailing metadata `corekit-error-code`, `corekit-error-kind` and
 * `corekit-http-status` carry the stable code, the kind and the HTTP status of `errorKindStatus`.
 */
export const grpcStatusCodes: Readonly<Record<ErrorKind, status>> = Object.freeze({
  'invalid-input': status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  forbidden: status.PERMISSION_DENIED,
  'not-found': status.NOT_FOUND,
  'not-active': status.NOT_FOUND,
  conflict: status.ABORTED,
  replay: status.ALREADY_EXISTS,
  'precondition-failed': status.FAILED_PRECONDITION,
  'too-large': status.RESOURCE_EXHAUSTED,
  unavailable: status.UNAVAILABLE,
});

/** The gRPC error for what a behavior threw; `unexpected` is called for errors that are not expected failures. */
export function toGrpcError(error: unknown, unexpected: (error: unknown) => void): Partial<ServiceError> {
  const metadata = new Metadata();
  if (isOperationError(error)) {
    metadata.set('corekit-error-code', error.code);
    metadata.set('corekit-error-kind', error.kind);
    metadata.set('corekit-http-status', String(errorKindStatus[error.kind]));
    const issues = (error.details as { errors?: unknown })?.errors;
    if (Array.isArray(issues)) metadata.set('corekit-errors-json', JSON.stringify(issues).slice(0, 4000));
    return { code: grpcStatusCodes[error.kind], details: error.message, metadata };
  }
  unexpected(error);
  metadata.set('corekit-error-code', 'INTERNAL');
  return { code: status.INTERNAL, details: 'Internal error; the host log has the details', metadata };
}
