import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type {
  AuthorizationDecision,
  AuthorizationRequest,
  AuthorizationResource,
  Authorizer,
  Logger,
  OperationDefinition,
  OperationPrincipal,
} from '@corekit/abstractions';
import type { Request } from 'express';
import { authorizationProblem } from './operation-routes';
import { webHostEventIds } from './web-host-event-ids';
import type { AuthorizeRequest } from './web-host-options';

/**
 * Asks the host's `authorize` hook about a guarded operation, with the operation's named policy (or, for a
 * handler's `context.authorize`, the further `policyOverride`) and what it acts on (`resource`, from the
 * operation's `authorizationResource`; left out of the requirement when the operation declares none). Fail
 * closed: no hook answers 403 (nobody can be let in, so no credential would help: the answer of every guarded
 * `/engine` surface on a host without a hook), `false` or a throw 403, an `unauthenticated` decision 401; only
 * `true` or `{ outcome: 'allowed' }` runs the operation.
 */
export async function authorizeOperation(
  request: Request,
  operation: OperationDefinition,
  authorize: AuthorizeRequest | undefined,
  logger: Logger,
  resource: AuthorizationResource | null = null,
  policyOverride?: string,
): Promise<OperationPrincipal> {
  const policy =
    policyOverride ??
    (operation.authorization?.mode === 'required' ? (operation.authorization.policy ?? null) : null);
  if (!authorize) {
    throw authorizationProblem(
      'forbidden',
      `${operation.method} ${operation.path} requires authorization and this host has no authorize hook, so it admits no one; pass createWebHost({ authorize })`,
    );
  }
  let decision: AuthorizationDecision;
  try {
    decision = await authorize(request, {
      policy,
      operationId: operation.id,
      ...(resource ? { resource } : {}),
    });
  } catch (error) {
    logger.log({
      level: 'error',
      eventId: webHostEventIds.authorizationFailed,
      category: 'web-host',
      message: `The authorize hook threw for operation ${operation.id}: ${(error as Error)?.message ?? error}; treated as denied`,
    });
    decision = false;
  }
  if (decision === true) return { subject: null, policy, claims: {} };
  if (decision && typeof decision === 'object' && decision.outcome === 'allowed') {
    return {
      subject: decision.principal?.subject ?? null,
      policy: decision.principal?.policy ?? policy,
      claims: decision.principal?.claims ?? {},
    };
  }
  if (decision && typeof decision === 'object' && decision.outcome === 'unauthenticated') {
    throw authorizationProblem(
      'unauthenticated',
      decision.reason ?? 'This operation needs credentials the host accepts',
    );
  }
  throw authorizationProblem(
    'forbidden',
    (decision && typeof decision === 'object' && 'reason' in decision && decision.reason) ||
      `The host refused this request${policy ? ` (policy ${policy})` : ''}`,
  );
}

/** A request for the hook when the call did not arrive over this host's HTTP server (gRPC): method, path, headers. */
function requestFor(request: AuthorizationRequest): IncomingMessage {
  const message = new IncomingMessage(new Socket());
  message.method = request.method;
  message.url = request.path;
  message.headers = { ...request.headers };
  return message;
}

/**
 * The host's `authorize` hook as the pack contract's `Authorizer`, handed to every transport adapter and used
 * for behavior calls on REST and the behavior streams: the hook receives the HTTP request itself (or, for a
 * transport with its own server, a request carrying its method, path and headers) and the behavior's policy
 * and id (and the resource, when the caller names one). No hook answers `forbidden` (nobody can be let in, as
 * on every guarded surface); a throw is logged and counts as `false`.
 */
export function hostAuthorizer(authorize: AuthorizeRequest | undefined, logger: Logger): Authorizer {
  return async (request) => {
    if (!authorize) {
      return {
        outcome: 'forbidden',
        reason: 'This host has no authorize hook, so it admits no one; pass createWebHost({ authorize })',
      };
    }
    try {
      return await authorize(request.raw ?? requestFor(request), {
        policy: request.policy,
        operationId: request.operationId,
        ...(request.resource ? { resource: request.resource } : {}),
      });
    } catch (error) {
      logger.log({
        level: 'error',
        eventId: webHostEventIds.authorizationFailed,
        category: 'web-host',
        message: `The authorize hook threw for ${request.operationId ?? request.path}: ${(error as Error)?.message ?? error}; treated as denied`,
      });
      return false;
    }
  };
}
