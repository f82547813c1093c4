import {
  isOperationError,
  OperationError,
  type OperationContext,
  type OperationPrincipal,
} from '@corekit/abstractions';

/**
 * Asks the host's authorizer for a further named policy a part of the request needs. A refusal answers 403
 * with the caller's own `code` (401 stays 401: no credentials at all), so the problem says which grant is
 * missing rather than a generic FORBIDDEN.
 */
export async function requireGrant(
  context: Pick<OperationContext, 'authorize'>,
  policy: string,
  code: string,
  message: string,
): Promise<OperationPrincipal> {
  try {
    return await context.authorize({ policy });
  } catch (error) {
    if (isOperationError(error) && error.kind === 'forbidden') {
      throw new OperationError('forbidden', code, `${message} (policy ${policy})`);
    }
    throw error;
  }
}
