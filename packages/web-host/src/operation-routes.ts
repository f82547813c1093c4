import {
  type AuthorizationResource,
  errorKindStatus,
  isOperationError,
  operationErrorCodes,
  OperationError,
  type Engine,
  type ErrorKind,
  type OperationDefinition,
  type OperationPrincipal,
} from '@corekit/abstractions';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { ZodType } from 'zod';
import type { HostRoute, HttpMethod, RouteResponse } from './host-route';
import { utf8JsonBody } from './json-body';
import { HttpProblem } from './problem-details';
import { boundedBodyParser } from './bounded-body-parser';
import type { HostOperatorAudit } from './operator-audit';

/** True for a zod schema (module packages may hand duck-typed validators the API description cannot show). */
function isZodSchema(schema: unknown): schema is ZodType {
  return !!schema && typeof schema === 'object' && '_zod' in schema;
}

/**
 * What the host decided for a guarded operation, asked with what it acts on (its resolved
 * `authorizationResource`, or null): the principal to hand the handler, or a problem.
 */
export type OperationGuard = (
  request: Request,
  operation: OperationDefinition,
  resource: AuthorizationResource | null,
  /** A further policy a handler asks for (`OperationContext.authorize`); default the operation's own. */
  policy?: string,
) => Promise<OperationPrincipal | null>;

/** How operation routes reach the host. */
export interface OperationRouteContext {
  readonly engine: Engine;
  /** Default body limit (Engine:Web:MaxRequestBodyBytes). */
  readonly maxBodyBytes: number;
  /** How long a connection closed after a 413 keeps reading off the refused upload (Engine:Web:LingerTimeout). */
  readonly lingerMs: number;
  /** Decides authorization for one request; throws an HttpProblem (401/403) to refuse. */
  readonly guard: OperationGuard;
  /** True when the operation must be authorized (its declaration, else the host's /engine exposure policy). */
  readonly isGuarded: (operation: OperationDefinition) => boolean;
  /** Records guarded operations that change state (the operator audit); absent: nothing is recorded. */
  readonly audit?: HostOperatorAudit;
}

/** The status and problem code an error thrown while serving an operation is answered with. */
function answerOf(error: unknown): { status: number; code: string | null } {
  const code = (error as { code?: unknown })?.code;
  if (error instanceof HttpProblem) return { status: error.status, code: error.code };
  if (isOperationError(error)) return { status: errorKindStatus[error.kind], code: error.code };
  return { status: 500, code: typeof code === 'string' ? code : null };
}

/**
 * The request as the authorize hook sees it when a handler presents a credential from the body (a sign-in
 * form): the same request with `Authorization: Bearer <credential>` in place of its own header.
 */
function presenting(request: Request, credential: string): Request {
  return Object.create(request, {
    headers: { value: { ...request.headers, authorization: `Bearer ${credential}` }, enumerable: true },
  }) as Request;
}

function headersOf(request: Request): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(', ') : value,
    ]),
  );
}

function documentedResponses(operation: OperationDefinition): Record<number, RouteResponse> {
  const responses: Record<number, RouteResponse> = {
    [operation.successStatus ?? 200]: {
      description: 'The operation answer',
      ...(isZodSchema(operation.result) ? { schema: operation.result } : { contentType: 'application/json' }),
    },
    400: {
      description: `The request does not match the operation input (problem code ${operationErrorCodes.inputInvalid})`,
    },
    503: { description: `The runtime has not started (problem code ${operationErrorCodes.unavailable})` },
  };
  for (const [kind, when] of Object.entries(operation.errors ?? {})) {
    const status = errorKindStatus[kind as ErrorKind];
    const existing = responses[status]?.description;
    responses[status] = { description: existing && status !== 400 ? `${existing}; ${when}` : String(when) };
  }
  return responses;
}

/**
 * One operation as a host route: body parsed by its own parser (raw bytes for `rawBody` operations, JSON
 * otherwise) with its own limit (413 before a byte is read when the declared length is over it, and as
 * soon as a chunked body passes it), the operation's resource resolved once (`authorizationResource`:
 * a refusal answers 400 before anything else), authorization through the host's guard with that resource,
 * then `engine.operations.invoke`; errors become problem details through the error-kind table.
 */
export function operationRoute(operation: OperationDefinition, context: OperationRouteContext): HostRoute {
  const limit = operation.maxBodyBytes ?? context.maxBodyBytes;
  const bodyParser: RequestHandler = boundedBodyParser(
    operation.rawBody ? express.raw({ type: () => true, limit }) : utf8JsonBody(limit, true),
    limit,
    context.lingerMs,
  );
  const parameters = Object.keys(
    (operation.params as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? {},
  );
  const guarded = context.isGuarded(operation);
  const documentedBody = isZodSchema(operation.body) ? operation.body : undefined;
  const documentedQuery = isZodSchema(operation.query) ? operation.query : undefined;
  return {
    method: operation.method.toLowerCase() as HttpMethod,
    path: operation.path,
    operationId: operation.id,
    rel: operation.method === 'GET' && operation.path.startsWith('/engine') ? operation.id : undefined,
    summary: operation.summary,
    description: operation.description,
    tags: operation.tags ? [...operation.tags] : operation.owner ? [operation.owner] : undefined,
    parameters: Object.fromEntries(parameters.map((name) => [name, `the ${name}`])),
    requireAuthorization: guarded,
    guardedByHandler: true,
    servedWhileDraining: operation.servedWhileDraining,
    excludeFromDescription: operation.excludeFromDescription,
    documentedInput:
      documentedBody || documentedQuery
        ? {
            ...(documentedBody ? { body: documentedBody } : {}),
            ...(documentedQuery ? { query: documentedQuery } : {}),
          }
        : undefined,
    ownsBodyParsing: true,
    responses: documentedResponses(operation),
    preHandlers: [bodyParser],
    handler: async (request: Request, response: Response) => {
      const params = { ...(request.params as Record<string, string>) };
      const query = { ...(request.query as Record<string, unknown>) };
      // Guarded operations that change state are operator actions: recorded whatever their outcome.
      const audit = guarded && operation.method !== 'GET' ? context.audit : undefined;
      let resource: AuthorizationResource | null = null;
      let principal: OperationPrincipal | null = null;
      let recorded = false;
      const record = (status: number, code: string | null) => {
        recorded = true;
        audit?.record(request, { action: operation.id, principal, resource, params, status, code });
      };
      const controller = new AbortController();
      const abort = () => {
        if (!response.writableFinished) controller.abort();
      };
      response.once('close', abort);
      try {
        // Resolved once, before authorization: the authorizer and the handler see the same resource.
        resource = operation.authorizationResource
          ? await operation.authorizationResource({ params, query, body: request.body })
          : null;
        principal = guarded ? await context.guard(request, operation, resource) : null;
        const raw = operation.rawBody && Buffer.isBuffer(request.body) ? request.body : undefined;
        const outcome = await context.engine.operations.invoke(operation.id, {
          params,
          query,
          body: raw ?? request.body,
          rawBody: raw,
          requestPath: request.path,
          headers: headersOf(request),
          principal,
          resource,
          authorize: (requirement) =>
            handlerAuthorization(
              context,
              requirement.credential === undefined ? request : presenting(request, requirement.credential),
              operation,
              requirement.resource ?? resource,
              requirement.policy,
            ),
          transport: 'http',
          signal: controller.signal,
          // The request's server span (http-server-telemetry) covers this one operation.
          tracing: 'request-span',
        });
        // Recorded before the answer leaves, so a client reading the audit next finds it (on this replica).
        record(outcome.status, null);
        // no-store unless the operation chose its own caching (hashed static assets are immutable).
        response.setHeader('Cache-Control', 'no-store');
        for (const [name, value] of Object.entries(outcome.headers)) response.setHeader(name, value);
        response.status(outcome.status);
        if (outcome.body === undefined || outcome.status === 204) response.end();
        else if (outcome.contentType === 'application/json') response.json(outcome.body);
        else response.type(outcome.contentType).send(outcome.body as string | Buffer);
      } catch (error) {
        if (!recorded) {
          const answer = answerOf(error);
          record(answer.status, answer.code);
        }
        throw error;
      } finally {
        response.off('close', abort);
      }
    },
  };
}

/**
 * A handler's further policy (`OperationContext.authorize`) asked of the same hook for the same request;
 * a refusal becomes the OperationError the contract promises, so the handler can answer its own code.
 */
async function handlerAuthorization(
  context: OperationRouteContext,
  request: Request,
  operation: OperationDefinition,
  resource: AuthorizationResource | null,
  policy: string,
): Promise<OperationPrincipal> {
  try {
    const principal = await context.guard(request, operation, resource, policy);
    return principal ?? { subject: null, policy, claims: {} };
  } catch (error) {
    if (error instanceof HttpProblem && (error.status === 401 || error.status === 403)) {
      const kind = error.status === 401 ? 'unauthenticated' : 'forbidden';
      throw new OperationError(kind, operationErrorCodes[kind], error.message);
    }
    throw error;
  }
}

/** A problem for a refused authorization decision. */
export function authorizationProblem(outcome: 'unauthenticated' | 'forbidden', detail: string): HttpProblem {
  return outcome === 'unauthenticated'
    ? new HttpProblem(401, operationErrorCodes.unauthenticated, detail, {}, { 'WWW-Authenticate': 'Bearer' })
    : new HttpProblem(403, operationErrorCodes.forbidden, detail);
}
