import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorKindStatus, isOperationError } from '@corekit/abstractions';
import type { MultiTenancy, TenantRouteOptions } from './multi-tenancy';
import { runWithTenant } from './tenant-context';
import type { TenantResolutionRequest } from './tenant-resolver';

/** A node request, optionally with the fields express adds (`params`, `path`) and a principal's claims. */
export type TenantResolvableMessage = IncomingMessage & {
  readonly params?: Readonly<Record<string, unknown>>;
  readonly path?: string;
  /** Set by an authentication middleware that ran before this one (`request.auth.claims` or `request.user`). */
  readonly auth?: { readonly claims?: Readonly<Record<string, unknown>> };
  readonly user?: Readonly<Record<string, unknown>>;
};

/** The TenantResolutionRequest of a node (or express) request. */
export function tenantResolutionRequestOf(request: TenantResolvableMessage): TenantResolutionRequest {
  const claims = request.auth?.claims ?? request.user;
  return {
    headers: request.headers,
    path: request.path ?? request.url ?? '/',
    ...(request.params ? { params: request.params } : {}),
    ...(claims ? { claims } : {}),
  };
}

/**
 * A connect-style middleware (express `app.use(...)`, or a plain `http` handler chain): resolves the tenant,
 * then calls `next()` inside that tenant's ambient context, so every handler after it reads
 * `currentTenant()`. A refusal answers problem details (400 TENANT_REQUIRED or TENANT_ID_INVALID, 404
 * TENANT_NOT_FOUND) and `next` is not called. A resolver that throws is passed to `next(error)`.
 */
export function tenantResolutionMiddleware(
  tenancy: MultiTenancy,
  options: TenantRouteOptions = {},
): (request: TenantResolvableMessage, response: ServerResponse, next: (error?: unknown) => void) => void {
  return (request, response, next) => {
    tenancy.resolveForRoute(tenantResolutionRequestOf(request), options).then(
      (tenant) => (tenant ? runWithTenant(tenant, () => next()) : next()),
      (error: unknown) => {
        if (!isOperationError(error)) return next(error);
        const status = errorKindStatus[error.kind];
        response.statusCode = status;
        response.setHeader('content-type', 'application/problem+json');
        response.end(
          JSON.stringify({
            type: 'about:blank',
            title: error.kind === 'not-found' ? 'Tenant not found' : 'Tenant not resolved',
            status,
            detail: error.message,
            code: error.code,
          }),
        );
      },
    );
  };
}
