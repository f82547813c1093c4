import {
  CoreError,
  defineExtensionKey,
  storePostureOf,
  type EngineBuilder,
  type StorePosture,
} from '@corekit/abstractions';
import { multiTenancyKey } from '@corekit/tenancy';
import { governanceDeliveryPostureKey, governanceHttpEndpointsPostureKey } from './delivery-seams';
import type { GovernanceContext } from './governance-context';
import { governanceEventIdNames, governanceEventIds } from './governance-event-ids';
import {
  governanceSectionPath,
  tenantGovernanceOptionsSchema,
  type TenantGovernanceOptions,
  type TenantGovernanceOptionsInput,
} from './governance-options';
import { createGovernanceService } from './governance-service';
import { addInvitationExpiryJob, governanceLifecycleHooks } from './governance-lifecycle';
import { governanceSurfaces } from './governance-surfaces';
import { openGovernanceContext } from './open-governance-context';
import { tenantGovernanceKey, type TenantGovernance } from './tenant-governance';

/** Internal: the governance context, for the delivery registration of this package (not exported). */
export const governanceContextKey = defineExtensionKey<GovernanceContext>(
  '@corekit/tenant-governance/internal-context',
  'Governance stores and settings (internal to @corekit/tenant-governance)',
);

export { governanceStoreNames, tenantGovernanceRegistrationKey } from './governance-registration-names';

/** Code-only options of `addTenantGovernance`. */
export interface TenantGovernanceExtensions {
  /** Source of "now" (invitation expiry, record times); tests pass a controllable one. Default the system clock. */
  readonly now?: () => Date;
}

/**
 * How the engine keeps stores, from the store provider actually installed (`builder.storeTraits()`): Memory,
 * File, PostgreSQL, Redis, whether chosen by configuration, in code or by a package. Read when a surface is
 * read or the engine starts, never at registration (the provider may be installed after this call).
 */
export function storePosture(builder: EngineBuilder): () => StorePosture {
  return () => storePostureOf(builder.storeTraits());
}

function assertConfiguredTenants(
  settings: TenantGovernanceOptions,
  isKnown: (tenantId: string) => boolean,
): void {
  const problems: string[] = [];
  for (const [listName, list] of [
    ['Memberships', settings.Memberships],
    ['Invitations', settings.Invitations],
    ['Actions', settings.Actions],
    ['Domains', settings.Domains],
  ] as const) {
    list.forEach((item, index) => {
      if (!isKnown(item.TenantId)) {
        problems.push(
          `${governanceSectionPath}:${listName}:${index}:TenantId names no configured tenant (Engine:MultiTenancy:Tenants)`,
        );
      }
    });
  }
  if (problems.length > 0) {
    throw new CoreError('CONFIGURATION_INVALID', `Invalid configuration:\n- ${problems.join('\n- ')}`, {
      section: governanceSectionPath,
      problems,
    });
  }
}

/**
 * Registers the governance companion (`Engine:MultiTenancy:Governance`): memberships, invitations,
 * administration commands, declared domains and governance actions on the engine's stores, the governance
 * technology surfaces, event ids 4510-4529, the invitation expiry sweep job, and the service under
 * `tenantGovernanceKey`. Requires `addMultiTenancy` first. It maps no HTTP endpoint: the web adapter does.
 */
export function addTenantGovernance(
  builder: EngineBuilder,
  options?: TenantGovernanceOptionsInput,
  extensions: TenantGovernanceExtensions = {},
): TenantGovernance {
  const tenancy = builder.resolve(multiTenancyKey);
  if (!tenancy) {
    throw new CoreError(
      'TENANCY_NOT_REGISTERED',
      'addTenantGovernance needs addMultiTenancy to be called first on the same builder',
    );
  }
  builder.claimRegistration({ packageName: '@corekit/tenant-governance', entry: 'addTenantGovernance' });
  builder.declarePack({ packageName: '@corekit/tenant-governance', specificationVersion: 1 });
  const settings = builder.configuration.bind(governanceSectionPath, tenantGovernanceOptionsSchema, options);
  assertConfiguredTenants(settings, (tenantId) => tenancy.isKnownTenant(tenantId));

  const context = openGovernanceContext(builder, settings, tenancy, extensions.now ?? (() => new Date()));
  const service = createGovernanceService(context);
  const store = storePosture(builder);

  builder.provide(tenantGovernanceKey, service);
  builder.provide(governanceContextKey, context);
  builder.addEventIds({
    component: 'Tenant governance',
    ranges: [[4510, 4529]],
    names: governanceEventIdNames,
  });
  builder.addLifecycleHooks(governanceLifecycleHooks(builder, context, service, store));
  addInvitationExpiryJob(builder, context, service);
  builder.addTechnologySurfaces(() =>
    governanceSurfaces(
      context,
      store(),
      builder.resolve(governanceDeliveryPostureKey),
      builder.resolve(governanceHttpEndpointsPostureKey),
    ),
  );
  builder.logger.log({
    level: 'info',
    eventId: governanceEventIds.registered,
    category: 'tenant-governance',
    message: `Tenant governance registered (${settings.Roles.length} role(s))`,
  });
  return service;
}
