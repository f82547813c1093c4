import type { EngineBuilder } from '@corekit/abstractions';
import type { MultiTenancy } from '@corekit/tenancy';
import type { GovernanceContext } from './governance-context';
import { governanceEventIds } from './governance-event-ids';
import type { TenantGovernanceOptions } from './governance-options';
import { governanceStoreNames } from './governance-registration-names';
import { RecordStore } from './record-store';
import { SharedStateMirrors } from './shared-state-mirrors';

/**
 * Opens the governance stores and the context the service's parts share: a `RecordStore` per record kind
 * (each with its read copy among the `SharedStateMirrors`), the bounded audit store, the command counter and
 * the applied and refused counts. A write that loses its compare-and-set logs 4529 (warn, the store name).
 */
export function openGovernanceContext(
  builder: EngineBuilder,
  settings: TenantGovernanceOptions,
  tenancy: MultiTenancy,
  now: () => Date,
): GovernanceContext {
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
    const store = builder.openStore<T>(name, { maxEntries: settings.MaxRecordsPerStore });
    return new RecordStore(store, onConflict, sharedState.mirror(store));
  };
  return {
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
}
