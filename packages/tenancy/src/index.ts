export { addMultiTenancy, multiTenancyRegistrationKey } from './add-multi-tenancy';
export type { MultiTenancyExtensions } from './add-multi-tenancy';
export {
  multiTenancyOptionsSchema,
  multiTenancySectionPath,
  tenantOptionsSchema,
  tenantResolutionStrategies,
  normalizeHostName,
} from './multi-tenancy-options';
export type {
  MultiTenancyOptions,
  MultiTenancyOptionsInput,
  TenantOptions,
  TenantResolutionStrategy,
} from './multi-tenancy-options';
export {
  multiTenancyKey,
  tenantResolutionErrorCodes,
  tenantResolutionRequestOfOperation,
} from './multi-tenancy';
export type { ConfiguredTenant, MultiTenancy, TenantRouteOptions } from './multi-tenancy';
export {
  currentTenant,
  currentTenantId,
  requireCurrentTenant,
  runWithTenant,
  runWithoutTenant,
  tenantContextMissingCode,
} from './tenant-context';
export type { TenantContext, TenantSource } from './tenant-context';
export { TenantResolutionEngine } from './tenant-resolver';
export type { TenantResolution, TenantResolutionRequest, TenantResolver } from './tenant-resolver';
export { tenantResolutionMiddleware, tenantResolutionRequestOf } from './tenant-resolution-middleware';
export type { TenantResolvableMessage } from './tenant-resolution-middleware';
export { tenancyEventIds, tenancyEventIdNames } from './tenancy-event-ids';
