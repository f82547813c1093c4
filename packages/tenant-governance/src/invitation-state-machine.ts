import type { GovernanceActionStatus, InvitationStatus, TenantInvitation } from './governance-records';

/**
 * The invitation state machine. `pending`: a delivery is due (new, or resent). `sent`: the last due
 * delivery was handed off (by the host with `mark-sent`, or by a delivery dispatcher). `accepted`, `revoked`
 * and `expired` are terminal. Expiry is a transition of its own: a live invitation whose `expiresAtUtc` has
 * passed is `expired` on every read and every command, and the sweep job writes it down.
 *
 * | from            | move                | to       |
 * |-----------------|---------------------|----------|
 * | pending         | mark-sent           | sent     |
 * | sent            | mark-sent           | sent (sendCount + 1) |
 * | pending, sent   | resend              | pending (new expiry, resendCount + 1) |
 * | pending, sent   | accept              | accepted |
 * | pending, sent   | revoke              | revoked  |
 * | pending, sent   | (expiresAtUtc past) | expired  |
 */
export const invitationTransitions: Readonly<
  Record<string, { from: readonly InvitationStatus[]; to: InvitationStatus }>
> = {
  'mark-sent': { from: ['pending', 'sent'], to: 'sent' },
  resend: { from: ['pending', 'sent'], to: 'pending' },
  accept: { from: ['pending', 'sent'], to: 'accepted' },
  revoke: { from: ['pending', 'sent'], to: 'revoked' },
  expire: { from: ['pending', 'sent'], to: 'expired' },
};

export const liveInvitationStatuses: readonly InvitationStatus[] = ['pending', 'sent'];

/** True when the invitation is pending or sent and its expiry has passed at `now`. */
export function isOverdue(invitation: TenantInvitation, now: Date): boolean {
  return (
    liveInvitationStatuses.includes(invitation.status) && Date.parse(invitation.expiresAtUtc) <= now.getTime()
  );
}

/** The invitation as of `now`: an overdue live invitation reads as expired (at its expiry time). */
export function withExpiry(invitation: TenantInvitation, now: Date): TenantInvitation {
  if (!isOverdue(invitation, now)) return invitation;
  return {
    ...invitation,
    status: 'expired',
    expiredAtUtc: invitation.expiresAtUtc,
    updatedAtUtc: now.toISOString(),
  };
}

/**
 * The governance action state machine. Both kinds start `pending` and take one decision: approve →
 * `approved`, reject → `rejected` (terminal). An approved approval action is terminal. A remediation goes on:
 * start → `in-progress`, then complete → `completed` or fail → `failed`. Cancel ends a pending or approved
 * action as `cancelled`. These are in-process state transitions only: nothing here executes a remediation.
 */
export const actionTransitions: Readonly<
  Record<
    string,
    { from: readonly GovernanceActionStatus[]; to: GovernanceActionStatus; remediationOnly?: boolean }
  >
> = {
  approve: { from: ['pending'], to: 'approved' },
  reject: { from: ['pending'], to: 'rejected' },
  start: { from: ['approved'], to: 'in-progress', remediationOnly: true },
  complete: { from: ['in-progress'], to: 'completed', remediationOnly: true },
  fail: { from: ['in-progress'], to: 'failed', remediationOnly: true },
  cancel: { from: ['pending', 'approved'], to: 'cancelled' },
};
