import { AsyncLocalStorage } from 'node:async_hooks';
import { OperationError } from '@corekit/abstractions';

/** How the tenant of the current context was found. */
export type TenantSource =
  'header' | 'host' | 'route-parameter' | 'claim' | 'custom' | 'default' | 'explicit';

/**
 * The ambient tenant: who the current request or job runs for. Immutable; a nested `runWithTenant` replaces
 * it for its callback only.
 */
export interface TenantContext {
  readonly tenantId: string;
  readonly displayName: string;
  /** True when the id is one of the configured tenants (false only under `AllowUnconfiguredTenants`). */
  readonly configured: boolean;
  readonly source: TenantSource;
  /** Id of the custom resolver that found it, when `source` is `custom`. */
  readonly resolverId?: string;
}

/**
 * The one ambient store, on `AsyncLocalStorage`: the context follows `await`, timers, promise callbacks and
 * event emitters created inside `runWithTenant`. It is per process, not per engine: two engines in one
 * process share it (each request still carries only its own tenant). Work started outside a
 * `runWithTenant` callback (a module-level timer, a pooled connection's callback registered earlier) does
 * not see the tenant.
 */
const storage = new AsyncLocalStorage<TenantContext>();

/** Error code of `requireCurrentTenant` outside a tenant context. */
export const tenantContextMissingCode = 'TENANT_CONTEXT_MISSING';

/** The tenant of the current request or job, or undefined outside any tenant context. */
export function currentTenant(): TenantContext | undefined {
  return storage.getStore();
}

/** The current tenant id, or undefined. */
export function currentTenantId(): string | undefined {
  return storage.getStore()?.tenantId;
}

/**
 * The current tenant; throws OperationError `invalid-input` (400, TENANT_CONTEXT_MISSING) outside a tenant
 * context, so an operation that needs a tenant never silently runs without one.
 */
export function requireCurrentTenant(): TenantContext {
  const tenant = storage.getStore();
  if (!tenant) {
    throw new OperationError('invalid-input', tenantContextMissingCode, 'This request must name a tenant');
  }
  return tenant;
}

/**
 * Runs `callback` with `tenant` as the ambient tenant (a string is taken as an explicit, unconfigured-unknown
 * id: prefer the TenantContext the resolver returned). The previous context is restored afterwards.
 */
export function runWithTenant<T>(tenant: TenantContext | string, callback: () => T): T {
  const context: TenantContext =
    typeof tenant === 'string'
      ? { tenantId: tenant, displayName: tenant, configured: false, source: 'explicit' }
      : Object.freeze({ ...tenant });
  return storage.run(context, callback);
}

/** Runs `callback` with no ambient tenant (for work that must not inherit the caller's tenant). */
export function runWithoutTenant<T>(callback: () => T): T {
  return storage.exit(callback);
}

/** Number of ambient-context accessors this package offers (currentTenant, currentTenantId, requireCurrentTenant). */
export const ambientContextAccessors = ['currentTenant', 'currentTenantId', 'requireCurrentTenant'] as const;
