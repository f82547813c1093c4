import { OperationError } from '@corekit/abstractions';
import type { GovernanceContext } from './governance-context';
import { expireIfOverdue } from './invitation-commands';
import { versionConflictCode } from './record-store';

/**
 * Marks every overdue live invitation expired (each with its audit entry); answers how many this call wrote.
 * An invitation another writer changed since the list (another replica's sweep or start, a command) is left
 * to that writer: its write stands, and a still-overdue invitation is seen by the next sweep (reads see it
 * expired meanwhile).
 */
export async function expireOverdueInvitations(context: GovernanceContext): Promise<number> {
  let expired = 0;
  for (const invitation of await context.invitations.list('')) {
    try {
      const after = await expireIfOverdue(context, invitation);
      if (after.status !== invitation.status) expired += 1;
    } catch (error) {
      if (!(error instanceof OperationError) || error.code !== versionConflictCode) throw error;
    }
  }
  return expired;
}
