import { publicInvitation } from './acceptance-secret';
import { actionKey, invitationKey, membershipKey, type GovernanceContext } from './governance-context';
import type {
  GovernanceAction,
  PrincipalKind,
  TenantAdministrationAuditEntry,
  TenantInvitation,
  TenantMembership,
} from './governance-records';
import { withExpiry } from './invitation-state-machine';
import type { MembershipEvaluation } from './tenant-governance';

/**
 * The read side of the service: lookups, lists and membership evaluation, each read from the store (never the
 * surfaces' read copy), so a write of any replica is read at once. Invitations read as of now (an overdue live
 * one reads expired) and never carry their acceptance-secret hashes.
 */
export function governanceReads(context: GovernanceContext) {
  return {
    async evaluate(query: {
      tenantId: string;
      principalKind?: PrincipalKind;
      principalId: string;
      role?: string;
    }): Promise<MembershipEvaluation> {
      const { tenantId, principalKind = 'user', principalId, role } = query;
      const membership = await context.memberships.get(membershipKey(tenantId, principalKind, principalId));
      if (!membership) return { allowed: false, status: 'not-member', roles: [] };
      const active = membership.status === 'active';
      return {
        allowed: active && (role === undefined || membership.roles.includes(role)),
        status: membership.status,
        roles: active ? membership.roles : [],
      };
    },
    getMembership(
      tenantId: string,
      principalKind: PrincipalKind,
      principalId: string,
    ): Promise<TenantMembership | undefined> {
      return context.memberships.get(membershipKey(tenantId, principalKind, principalId));
    },
    listMemberships(tenantId: string): Promise<readonly TenantMembership[]> {
      return context.memberships.list(`${tenantId}/`);
    },
    async getInvitation(tenantId: string, invitationId: string): Promise<TenantInvitation | undefined> {
      const invitation = await context.invitations.get(invitationKey(tenantId, invitationId));
      return invitation && publicInvitation(withExpiry(invitation, context.now()));
    },
    async listInvitations(tenantId: string): Promise<readonly TenantInvitation[]> {
      return (await context.invitations.list(`${tenantId}/`)).map((invitation) =>
        publicInvitation(withExpiry(invitation, context.now())),
      );
    },
    getAction(tenantId: string, actionId: string): Promise<GovernanceAction | undefined> {
      return context.actions.get(actionKey(tenantId, actionId));
    },
    listActions(tenantId: string): Promise<readonly GovernanceAction[]> {
      return context.actions.list(`${tenantId}/`);
    },
    /** The latest audit entries, newest first (at most `limit`). */
    async auditEntries(limit = 100): Promise<readonly TenantAdministrationAuditEntry[]> {
      const entries = await context.audit.list();
      return entries
        .slice(-limit)
        .reverse()
        .map((entry) => entry.value);
    },
  };
}

export type GovernanceReads = ReturnType<typeof governanceReads>;
