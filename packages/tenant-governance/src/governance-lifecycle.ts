import type { EngineBuilder, LifecycleHooks, StorePosture } from '@corekit/abstractions';
import type { GovernanceContext } from './governance-context';
import { tenantGovernanceRegistrationKey } from './governance-registration-names';
import type { TenantGovernance } from './tenant-governance';

/**
 * The lifecycle of the governance registration. `started`: loads every read copy (the delivery registration's
 * too) and, on a shared store, follows its change feed; then the service's start step (seeding, repair,
 * expiry) and a runtime-story entry. `stopping`: the copies stop following the store.
 */
export function governanceLifecycleHooks(
  builder: EngineBuilder,
  context: GovernanceContext,
  service: { start(): Promise<void> },
  store: () => StorePosture,
): LifecycleHooks {
  return {
    id: 'tenant-governance',
    started: async () => {
      await context.sharedState.start(store().shared);
      await service.start();
      builder.story.record({
        kind: 'tenant-governance',
        subjectId: null,
        transition: 'loaded',
        message: 'Tenant governance state loaded from the stores',
        details: { storeKind: store().kind },
      });
    },
    stopping: () => context.sharedState.stop(),
  };
}

/**
 * The invitation expiry sweep job (every `InvitationExpirySweepIntervalSeconds`; none with 0). Without a
 * connected feed (Memory, File, or a feed down) it also reads the copies whole.
 */
export function addInvitationExpiryJob(
  builder: EngineBuilder,
  context: GovernanceContext,
  service: Pick<TenantGovernance, 'expireOverdueInvitations'>,
): void {
  const seconds = context.settings.InvitationExpirySweepIntervalSeconds;
  if (seconds <= 0) return;
  builder.addJob({
    id: 'tenant-governance.invitation-expiry',
    displayName: 'Tenant invitation expiry sweep',
    intervalMs: seconds * 1000,
    owner: tenantGovernanceRegistrationKey,
    run: async () => {
      const expired = await service.expireOverdueInvitations();
      if (!context.sharedState.feedConnected) await context.sharedState.load();
      return { expired };
    },
  });
}
