import { randomUUID } from 'node:crypto';
import type { ParsedAdministrationRequest } from './administration-request';
import {
  assertRoles,
  assertTenant,
  assertVersion,
  audit,
  isWellFormedPrincipalId,
  membershipKey,
  refuse,
  type GovernanceContext,
} from './governance-context';
import type { MembershipStatus, TenantMembership } from './governance-records';
import type { TenantAdministrationWorkflowResult } from './tenant-governance';

type MembershipRequest = Extract<
  ParsedAdministrationRequest,
  { command: 'add-member' | 'change-roles' | 'remove-member' | 'suspend-member' | 'reactivate-member' }
>;

/** Which statuses each status command moves from, and where to. */
const statusMoves: Record<string, { from: readonly MembershipStatus[]; to: MembershipStatus }> = {
  'remove-member': { from: ['active', 'suspended'], to: 'removed' },
  'suspend-member': { from: ['active'], to: 'suspended' },
  'reactivate-member': { from: ['suspended'], to: 'active' },
};

/** The membership a command names, as read before the command, and what its audit entry shares. */
interface MembershipTarget {
  readonly key: string;
  readonly existing: (TenantMembership & { version: number }) | undefined;
  readonly now: string;
  readonly auditBase: {
    readonly command: string;
    readonly tenantId: string;
    readonly recordKind: 'membership';
    readonly actor: string | null;
    readonly correlationId: string | null;
  };
}

/**
 * Runs a membership command (add-member, change-roles, remove-member, suspend-member, reactivate-member) on a
 * known tenant and a well-formed principal id (404 TENANT_NOT_FOUND, 400 PRINCIPAL_INVALID otherwise).
 */
export async function executeMembershipCommand(
  context: GovernanceContext,
  request: MembershipRequest,
): Promise<TenantAdministrationWorkflowResult> {
  const { command, tenantId } = request;
  assertTenant(context, command, tenantId);
  if (!isWellFormedPrincipalId(request.principalId)) {
    refuse(
      context,
      command,
      tenantId,
      'invalid-input',
      'PRINCIPAL_INVALID',
      'The principal id is not well formed',
    );
  }
  const key = membershipKey(tenantId, request.principalKind, request.principalId);
  const target: MembershipTarget = {
    key,
    existing: await context.memberships.get(key),
    now: context.now().toISOString(),
    auditBase: {
      command,
      tenantId,
      recordKind: 'membership',
      actor: request.actor ?? null,
      correlationId: request.correlationId ?? null,
    },
  };
  return request.command === 'add-member'
    ? addMember(context, request, target)
    : changeMember(context, request, target);
}

/**
 * Adds a member (active, with the roles), or brings back a removed one; 409 MEMBERSHIP_EXISTS for a current
 * member (change-roles is the command for that).
 */
async function addMember(
  context: GovernanceContext,
  request: Extract<MembershipRequest, { command: 'add-member' }>,
  { key, existing, now, auditBase }: MembershipTarget,
): Promise<TenantAdministrationWorkflowResult> {
  const { command, tenantId } = request;
  assertRoles(context, command, tenantId, request.roles);
  if (existing && existing.status !== 'removed') {
    refuse(
      context,
      command,
      tenantId,
      'conflict',
      'MEMBERSHIP_EXISTS',
      'The principal is already a member of the tenant; use change-roles',
    );
  }
  if (existing) assertVersion(context, command, tenantId, request.expectedVersion, existing.version);
  const membership: TenantMembership = {
    membershipId: existing?.membershipId ?? randomUUID(),
    tenantId,
    principalKind: request.principalKind,
    principalId: request.principalId,
    roles: [...request.roles],
    status: 'active',
    invitationId: null,
    origin: existing?.origin ?? 'runtime',
    sourceModuleId: existing?.sourceModuleId ?? null,
    createdAtUtc: existing?.createdAtUtc ?? now,
    updatedAtUtc: now,
  };
  const written = await context.memberships.write(key, membership, existing?.version ?? 0);
  const entry = await audit(context, {
    ...auditBase,
    recordId: written.membershipId,
    fromStatus: existing?.status ?? null,
    toStatus: 'active',
    outcome: 'applied',
  });
  return { command, outcome: 'applied', membership: written, invitation: null, audit: entry };
}

/**
 * Changes a current member's roles or moves its status (`statusMoves`); asking for what the membership already
 * has is `unchanged` (audited, nothing written), removing a removed one too. 404 MEMBERSHIP_NOT_FOUND for no
 * or a removed membership, 409 MEMBERSHIP_TRANSITION_INVALID for a move its status does not allow.
 */
async function changeMember(
  context: GovernanceContext,
  request: Exclude<MembershipRequest, { command: 'add-member' }>,
  { key, existing, now, auditBase }: MembershipTarget,
): Promise<TenantAdministrationWorkflowResult> {
  const { command, tenantId } = request;
  if (!existing || existing.status === 'removed') {
    if (existing && request.command === 'remove-member') {
      const entry = await audit(context, {
        ...auditBase,
        recordId: existing.membershipId,
        fromStatus: 'removed',
        toStatus: 'removed',
        outcome: 'unchanged',
      });
      return { command, outcome: 'unchanged', membership: existing, invitation: null, audit: entry };
    }
    refuse(
      context,
      command,
      tenantId,
      'not-found',
      'MEMBERSHIP_NOT_FOUND',
      'The principal is not a member of the tenant',
    );
  }
  assertVersion(context, command, tenantId, request.expectedVersion, existing.version);

  let next: TenantMembership;
  let unchanged: boolean;
  if (request.command === 'change-roles') {
    assertRoles(context, command, tenantId, request.roles);
    unchanged = [...existing.roles].sort().join(',') === [...request.roles].sort().join(',');
    next = { ...existing, roles: [...request.roles], updatedAtUtc: now };
  } else {
    const move = statusMoves[request.command];
    unchanged = existing.status === move.to;
    if (!unchanged && !move.from.includes(existing.status)) {
      refuse(
        context,
        command,
        tenantId,
        'conflict',
        'MEMBERSHIP_TRANSITION_INVALID',
        `A ${existing.status} membership cannot be moved by ${command}`,
      );
    }
    next = { ...existing, status: move.to, updatedAtUtc: now };
  }
  const written = unchanged ? existing : await context.memberships.write(key, next, existing.version);
  const entry = await audit(context, {
    ...auditBase,
    recordId: existing.membershipId,
    fromStatus: existing.status,
    toStatus: written.status,
    outcome: unchanged ? 'unchanged' : 'applied',
  });
  return {
    command,
    outcome: unchanged ? 'unchanged' : 'applied',
    membership: written,
    invitation: null,
    audit: entry,
  };
}
