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
import { governanceSurfaces } from './governance-surfaces';
import { RecordStore } from './record-store';
import { SharedStateMirrors } from './shared-state-mirrors';
import { tenantGovernanceKey, type TenantGovernance } from './tenant-governance';

/** Internal: the governance context, for the delivery registration of this package (not exported). */
export const governanceContextKey = defineExtensionKey<GovernanceContext>(
  '@corekit/tenant-governance/internal-context',
  'Governance stores and settings (internal to @corekit/tenant-governance)',
);

/** Registration key of `addTenantGovernance` (a second call is refused). */
export const tenantGovernanceRegistrationKey = '@corekit/tenant-governance';

/** Code-only options of `addTenantGovernance`. */
export interface TenantGovernanceExtensions {
  /** Source of "now" (invitation expiry, record times); tests pass a controllable one. Default the system clock. */
  readonly now?: () => Date;
}

/** Names of the stores this package opens (`<name>.json` under `Engine:Stores:Directory` with the File provider). */
export const governanceStoreNames = {
  memberships: 'tenant-governance-memberships',
  invitations: 'tenant-governance-invitations',
  domains: 'tenant-governance-domains',
  actions: 'tenant-governance-actions',
  audit: 'tenant-governance-audit',
} as const;

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

  const maxEntries = settings.MaxRecordsPerStore;
  // A write that lost its compare-and-set to another writer (another request, another replica): 4529.
  const onConflict = (storeName: string) =>
    builder.logger.log({
      level: 'warn',
      eventId: governanceEventIds.versionConflict,
      category: 'tenant-governance',
      message: `A write to ${storeName} lost to a concurrent change (GOVERNANCE_VERSION_CONFLICT); the command may be retried`,
      code: 'GOVERNANCE_VERSION_CONFLICT',
      store: storeName,
    });
  const sharedState = new SharedStateMirrors(settings.SharedStateRefreshIntervalSeconds, builder.logger);
  const records = <T extends object>(name: string) => {
    const store = builder.openStore<T>(name, { maxEntries });
    return new RecordStore(store, onConflict, sharedState.mirror(store));
  };
  const now = extensions.now ?? (() => new Date());
  const context: GovernanceContext = {
    settings,
    tenancy,
    now,
    logger: builder.logger,
    story: builder.story,
    commandCounter: builder.meter.counter(
      'corekit.tenant_governance.commands',
      'tenant administration and governance-action commands by command and outcome (applied, unchanged, refused)',
    ),
    memberships: records(governanceStoreNames.memberships),
    invitations: records(governanceStoreNames.invitations),
    domains: records(governanceStoreNames.domains),
    actions: records(governanceStoreNames.actions),
    audit: builder.openStore(governanceStoreNames.audit, { maxEntries: settings.AuditMaxEntries + 1 }),
    applied: new Map(),
    refused: new Map(),
    sharedState,
  };
  const service = createGovernanceService(context);
  const store = storePosture(builder);

  builder.provide(tenantGovernanceKey, service);
  builder.provide(governanceContextKey, context);
  builder.addEventIds({
    component: 'Tenant governance',
    ranges: [[4510, 4529]],
    names: governanceEventIdNames,
  });
  builder.addLifecycleHooks({
    id: 'tenant-governance',
    started: async () => {
      // Loads every copy (the delivery registration's too) and, on a shared store, follows its change feed.
      await sharedState.start(store().shared);
      await service.start();
      builder.story.record({
        kind: 'tenant-governance',
        subjectId: null,
        transition: 'loaded',
        message: 'Tenant governance state loaded from the stores',
        details: { storeKind: store().kind },
      });
    },
    stopping: () => sharedState.stop(),
  });
  if (settings.InvitationExpirySweepIntervalSeconds > 0) {
    builder.addJob({
      id: 'tenant-governance.invitation-expiry',
      displayName: 'Tenant invitation expiry sweep',
      intervalMs: settings.InvitationExpirySweepIntervalSeconds * 1000,
      owner: tenantGovernanceRegistrationKey,
      run: async () => {
        const expired = await service.expireOverdueInvitations();
        // Without a connected feed (Memory, File, or a feed down), the sweep also re-reads the copies.
        if (!sharedState.feedConnected) await sharedState.load();
        return { expired };
      },
    });
  }
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
