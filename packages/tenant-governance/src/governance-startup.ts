import { OperationError } from '@corekit/abstractions';
import { membershipKey, type GovernanceContext } from './governance-context';
import { governanceEventIds } from './governance-event-ids';
import { seedConfiguredRecords, type ModuleContribution } from './governance-seed';
import { grantAcceptedMembership } from './invitation-commands';
import { expireOverdueInvitations } from './invitation-expiry-sweep';
import { versionConflictCode } from './record-store';

/**
 * An accepted invitation whose membership write was lost (a crash between the two writes) gets it now;
 * answers how many were repaired. Reads the invitations from the read copy the registration loaded.
 */
export async function repairAcceptedInvitations(context: GovernanceContext): Promise<number> {
  let repaired = 0;
  for (const invitation of context.invitations.values()) {
    if (invitation.status !== 'accepted' || !invitation.acceptedBy) continue;
    const { principalKind, principalId } = invitation.acceptedBy;
    if (await context.memberships.get(membershipKey(invitation.tenantId, principalKind, principalId)))
      continue;
    try {
      await grantAcceptedMembership(context, invitation);
      repaired += 1;
    } catch (error) {
      // Another replica starting at the same time repaired it first.
      if (!(error instanceof OperationError) || error.code !== versionConflictCode) throw error;
    }
  }
  return repaired;
}

/**
 * The start step of the service, run once the registration loaded the read copies: seeds the configured and
 * contributed records, repairs accepted invitations without their membership, opens the service (`open`, after
 * which commands run and contributions are refused), writes down overdue expiries, and logs 4511 with counts.
 */
export async function startGovernanceState(
  context: GovernanceContext,
  contributions: readonly ModuleContribution[],
  open: () => void,
): Promise<void> {
  await seedConfiguredRecords(context, contributions);
  const repaired = await repairAcceptedInvitations(context);
  open();
  const expired = await expireOverdueInvitations(context);
  context.logger.log({
    level: 'info',
    eventId: governanceEventIds.stateLoaded,
    category: 'tenant-governance',
    message: `Tenant governance state loaded: ${context.memberships.values().length} membership(s), ${context.invitations.values().length} invitation(s), ${context.actions.values().length} action(s), ${context.domains.values().length} domain(s)`,
    repairedMemberships: repaired,
    expiredInvitations: expired,
  });
}
