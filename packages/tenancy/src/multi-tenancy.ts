import {
  defineExtensionKey,
  OperationError,
  type Logger,
  type OperationContext,
  type OperationInput,
  type PackCounter,
} from '@corekit/abstractions';
import type { MultiTenancyOptions, TenantResolutionStrategy } from './multi-tenancy-options';
import { runWithTenant, type TenantContext } from './tenant-context';
import type { TenantResolution, TenantResolutionEngine, TenantResolutionRequest } from './tenant-resolver';
import { tenancyEventIds } from './tenancy-event-ids';

/** A configured tenant as other packages see it. */
export interface ConfiguredTenant {
  readonly tenantId: string;
  readonly displayName: string;
}

/** Stable codes of the resolution refusals (problem-details `code`). */
export const tenantResolutionErrorCodes = {
  /** 400: the route requires a tenant and no strategy found one (and there is no default tenant). */
  required: 'TENANT_REQUIRED',
  /** 400: the candidate found is not a well-formed tenant id. */
  invalid: 'TENANT_ID_INVALID',
  /** 404: the candidate found is well formed but names no configured tenant. */
  notFound: 'TENANT_NOT_FOUND',
} as const;

/** Options of the resolution seams (middleware, operation wrapper, `resolveForRoute`). */
export interface TenantRouteOptions {
  /** Refuse the request when no tenant is found. Default: `Engine:MultiTenancy:RequireTenant`. */
  readonly required?: boolean;
}

/**
 * The multi-tenancy service `addMultiTenancy` provides under `multiTenancyKey`: the configured tenants, the
 * resolution function, and the seams a host or another pack uses to run work under a resolved tenant.
 */
export interface MultiTenancy {
  readonly defaultTenantId: string | null;
  readonly strategies: readonly TenantResolutionStrategy[];
  readonly requireTenantByDefault: boolean;
  tenants(): readonly ConfiguredTenant[];
  /** True for a configured tenant, or any well-formed id under `AllowUnconfiguredTenants`. */
  isKnownTenant(tenantId: string): boolean;
  /** Resolves without throwing; see `TenantResolution` for the outcomes. */
  resolveTenant(request: TenantResolutionRequest): Promise<TenantResolution>;
  /**
   * Resolves for a route: the tenant, null when none was found and none is required, or an OperationError:
   * `invalid-input` 400 TENANT_REQUIRED / TENANT_ID_INVALID, `not-found` 404 TENANT_NOT_FOUND.
   */
  resolveForRoute(
    request: TenantResolutionRequest,
    options?: TenantRouteOptions,
  ): Promise<TenantContext | null>;
  /**
   * Wraps an operation handler: resolves from the operation's headers, route parameters and principal
   * claims, then runs the handler inside that tenant's context (refusals become problem details).
   */
  scopeOperation<I extends OperationInput, R>(
    handler: (input: I, context: OperationContext) => R | Promise<R>,
    options?: TenantRouteOptions,
  ): (input: I, context: OperationContext) => Promise<R>;
}

/** The typed extension key under which `addMultiTenancy` provides the service. */
export const multiTenancyKey = defineExtensionKey<MultiTenancy>(
  '@corekit/tenancy/multi-tenancy',
  'Tenant resolution and the configured tenants',
);

/** The TenantResolutionRequest of an operation call. */
export function tenantResolutionRequestOfOperation(
  input: OperationInput,
  context: OperationContext,
): TenantResolutionRequest {
  const params = (input.params ?? undefined) as Record<string, unknown> | undefined;
  return {
    headers: context.headers,
    ...(params && typeof params === 'object' ? { params } : {}),
    ...(context.principal ? { claims: context.principal.claims } : {}),
  };
}

export function createMultiTenancy(
  options: MultiTenancyOptions,
  engine: TenantResolutionEngine,
  logger: Logger,
  counter: PackCounter,
): MultiTenancy {
  const tenants = options.Tenants.map((tenant) =>
    Object.freeze({ tenantId: tenant.Id, displayName: tenant.DisplayName ?? tenant.Id }),
  );
  const known = new Set(tenants.map((tenant) => tenant.tenantId));
  const service: MultiTenancy = {
    defaultTenantId: options.DefaultTenantId ?? null,
    strategies: [...options.Strategies],
    requireTenantByDefault: options.RequireTenant,
    tenants: () => tenants,
    isKnownTenant: (tenantId) =>
      known.has(tenantId) ||
      (options.AllowUnconfiguredTenants && /^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(tenantId)),
    async resolveTenant(request) {
      const resolution = await engine.resolve(request);
      if (resolution.outcome === 'resolved') {
        counter.add(1, { outcome: 'resolved', source: resolution.tenant.source });
        logger.log({
          level: 'debug',
          eventId: tenancyEventIds.tenantResolved,
          category: 'tenancy',
          message: `Tenant resolved by ${resolution.tenant.source}`,
          tenantId: resolution.tenant.tenantId,
          source: resolution.tenant.source,
        });
      } else {
        const source = resolution.outcome === 'missing' ? 'none' : resolution.source;
        counter.add(1, { outcome: resolution.outcome, source });
        // The refused candidate is caller input: it is never logged.
        logger.log({
          level: 'info',
          eventId: tenancyEventIds.tenantUnresolved,
          category: 'tenancy',
          message: `Tenant not resolved (${resolution.outcome}, source ${source})`,
          outcome: resolution.outcome,
          source,
        });
      }
      return resolution;
    },
    async resolveForRoute(request, routeOptions = {}) {
      const required = routeOptions.required ?? options.RequireTenant;
      const resolution = await service.resolveTenant(request);
      switch (resolution.outcome) {
        case 'resolved':
          return resolution.tenant;
        case 'missing':
          if (!required) return null;
          throw new OperationError(
            'invalid-input',
            tenantResolutionErrorCodes.required,
            `This route requires a tenant (strategies tried: ${options.Strategies.join(', ')})`,
          );
        case 'invalid':
          throw new OperationError(
            'invalid-input',
            tenantResolutionErrorCodes.invalid,
            `The tenant id found by ${resolution.source} is not a well-formed id`,
          );
        case 'unknown':
          throw new OperationError(
            'not-found',
            tenantResolutionErrorCodes.notFound,
            `The tenant named by ${resolution.source} does not exist`,
          );
      }
    },
    scopeOperation(handler, routeOptions) {
      return async (input, context) => {
        const tenant = await service.resolveForRoute(
          tenantResolutionRequestOfOperation(input, context),
          routeOptions,
        );
        return tenant ? runWithTenant(tenant, () => handler(input, context)) : handler(input, context);
      };
    },
  };
  return Object.freeze(service);
}
