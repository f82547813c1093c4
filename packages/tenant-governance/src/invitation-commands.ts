import { randomUUID } from 'node:crypto';
import type { ParsedAdministrationRequest } from './administration-request';
import {
  assertRoles,
  assertTenant,
  assertVersion,
  audit,
  invitationKey,
  membershipKey,
  normalizeInviteeId,
  refuse,
  type GovernanceContext,
} from './governance-context';
import { publicInvitation } from './acceptance-secret';
import type { AuditFlag, TenantInvitation, TenantMembership } from './governance-records';
import { acceptedInvitation, refuseUsedAcceptanceSecret } from './invitation-acceptance';
import {
  invitationTransitions,
  isOverdue,
  liveInvitationStatuses,
  withExpiry,
} from './invitation-state-machine';
import type { TenantAdministrationWorkflowResult } from './tenant-governance';

type InvitationRequest = Extract<
  ParsedAdministrationRequest,
  { command: 'invite' | 'resend' | 'mark-sent' | 'revoke' | 'accept' }
>;

function lifetimeSeconds(
  context: GovernanceContext,
  command: string,
  tenantId: string,
  asked: number | undefined,
) {
  const seconds = asked ?? context.settings.InvitationLifetimeSeconds;
  if (seconds > context.settings.InvitationMaxLifetimeSeconds) {
    refuse(
      context,
      command,
      tenantId,
      'invalid-input',
      'INVITATION_LIFETIME_TOO_LONG',
      `expiresInSeconds must be at most ${context.settings.InvitationMaxLifetimeSeconds}`,
    );
  }
  return seconds;
}

/**
 * Writes down the expiry of an overdue live invitation (with its own audit entry, actor null) and answers
 * the invitation as it now is. Used by every command and by the sweep job.
 */
export async function expireIfOverdue(
  context: GovernanceContext,
  invitation: TenantInvitation & { version: number },
): Promise<TenantInvitation & { version: number }> {
  if (!isOverdue(invitation, context.now())) return invitation;
  const written = await context.invitations.write(
    invitationKey(invitation.tenantId, invitation.invitationId),
    withExpiry(invitation, context.now()),
    invitation.version,
  );
  await audit(context, {
    command: 'expire',
    tenantId: invitation.tenantId,
    recordKind: 'invitation',
    recordId: invitation.invitationId,
    fromStatus: invitation.status,
    toStatus: 'expired',
    outcome: 'applied',
    actor: null,
    correlationId: null,
  });
  return written;
}

async function invite(
  context: GovernanceContext,
  request: Extract<InvitationRequest, { command: 'invite' }>,
): Promise<TenantAdministrationWorkflowResult> {
  const { tenantId } = request;
  const inviteeId = normalizeInviteeId(request.inviteeKind, request.inviteeId);
  if (inviteeId === undefined) {
    refuse(
      context,
      'invite',
      tenantId,
      'invalid-input',
      'INVITEE_INVALID',
      `The invitee id is not a well-formed ${request.inviteeKind} id`,
    );
  }
  assertRoles(context, 'invite', tenantId, request.roles);
  const seconds = lifetimeSeconds(context, 'invite', tenantId, request.expiresInSeconds);
  for (const other of await context.invitations.list(`${tenantId}/`)) {
    const current = await expireIfOverdue(context, other);
    if (
      liveInvitationStatuses.includes(current.status) &&
      current.inviteeKind === request.inviteeKind &&
      current.inviteeId === inviteeId
    ) {
      refuse(
        context,
        'invite',
        tenantId,
        'conflict',
        'INVITATION_DUPLICATE',
        'A live invitation for this invitee already exists; resend or revoke it',
      );
    }
  }
  if (request.inviteeKind === 'user') {
    const member = await context.memberships.get(membershipKey(tenantId, 'user', inviteeId));
    if (member && member.status !== 'removed') {
      refuse(
        context,
        'invite',
        tenantId,
        'conflict',
        'INVITEE_ALREADY_MEMBER',
        'The invitee is already a member of the tenant',
      );
    }
  }
  const now = context.now();
  const invitation: TenantInvitation = {
    invitationId: randomUUID(),
    tenantId,
    inviteeKind: request.inviteeKind,
    inviteeId,
    roles: [...request.roles],
    status: 'pending',
    expiresAtUtc: new Date(now.getTime() + seconds * 1000).toISOString(),
    sendCount: 0,
    resendCount: 0,
    sentAtUtc: null,
    acceptedAtUtc: null,
    revokedAtUtc: null,
    expiredAtUtc: null,
    acceptedBy: null,
    metadata: { ...(request.metadata ?? {}) },
    origin: 'runtime',
    sourceModuleId: null,
    createdAtUtc: now.toISOString(),
    updatedAtUtc: now.toISOString(),
  };
  const written = await context.invitations.write(
    invitationKey(tenantId, invitation.invitationId),
    invitation,
    0,
  );
  const entry = await audit(context, {
    command: 'invite',
    tenantId,
    recordKind: 'invitation',
    recordId: invitation.invitationId,
    fromStatus: null,
    toStatus: 'pending',
    outcome: 'applied',
    actor: request.actor ?? null,
    correlationId: request.correlationId ?? null,
  });
  return {
    command: 'invite',
    outcome: 'applied',
    invitation: publicInvitation(written),
    membership: null,
    audit: entry,
  };
}

/** Grants (or extends) the membership an accepted invitation gives. Also used by the start-up repair. */
export async function grantAcceptedMembership(
  context: GovernanceContext,
  invitation: TenantInvitation,
): Promise<TenantMembership & { version: number }> {
  const principal = invitation.acceptedBy!;
  const key = membershipKey(invitation.tenantId, principal.principalKind, principal.principalId);
  const existing = await context.memberships.get(key);
  const now = context.now().toISOString();
  const roles =
    existing && existing.status === 'active'
      ? [...new Set([...existing.roles, ...invitation.roles])]
      : [...invitation.roles];
  const membership: TenantMembership = {
    membershipId: existing?.membershipId ?? randomUUID(),
    tenantId: invitation.tenantId,
    principalKind: principal.principalKind,
    principalId: principal.principalId,
    roles,
    status: 'active',
    invitationId: invitation.invitationId,
    origin: existing?.origin ?? 'runtime',
    sourceModuleId: existing?.sourceModuleId ?? null,
    createdAtUtc: existing?.createdAtUtc ?? now,
    updatedAtUtc: now,
  };
  return context.memberships.write(key, membership, existing?.version ?? 0);
}

export async function executeInvitationCommand(
  context: GovernanceContext,
  request: InvitationRequest,
): Promise<TenantAdministrationWorkflowResult> {
  const { command, tenantId } = request;
  assertTenant(context, command, tenantId);
  if (request.command === 'invite') return invite(context, request);

  const key = invitationKey(tenantId, request.invitationId);
  const stored = await context.invitations.get(key);
  if (!stored)
    refuse(context, command, tenantId, 'not-found', 'INVITATION_NOT_FOUND', 'The invitation does not exist');
  assertVersion(context, command, tenantId, request.expectedVersion, stored.version);
  const current = await expireIfOverdue(context, stored);
  if (request.command === 'accept') refuseUsedAcceptanceSecret(context, request, current);
  const move = invitationTransitions[command];
  if (!move.from.includes(current.status)) {
    refuse(
      context,
      command,
      tenantId,
      'conflict',
      current.status === 'expired' ? 'INVITATION_EXPIRED' : 'INVITATION_TRANSITION_INVALID',
      `A ${current.status} invitation cannot be moved by ${command}`,
    );
  }
  const now = context.now();
  let next: TenantInvitation;
  let flags: AuditFlag[] = [];
  switch (request.command) {
    case 'mark-sent':
      next = { ...current, status: 'sent', sendCount: current.sendCount + 1, sentAtUtc: now.toISOString() };
      break;
    case 'resend': {
      const seconds = lifetimeSeconds(context, command, tenantId, request.expiresInSeconds);
      next = {
        ...current,
        status: 'pending',
        resendCount: current.resendCount + 1,
        expiresAtUtc: new Date(now.getTime() + seconds * 1000).toISOString(),
      };
      break;
    }
    case 'revoke':
      next = { ...current, status: 'revoked', revokedAtUtc: now.toISOString() };
      break;
    case 'accept': {
      const accepted = await acceptedInvitation(context, request, current, now);
      next = accepted.next;
      flags = accepted.flags;
      break;
    }
  }
  next = { ...next, updatedAtUtc: now.toISOString() };
  // The invitation is written first (compare-and-set makes acceptance happen once); a crash before the
  // membership write is repaired at the next start (`repairAcceptedInvitations`).
  const written = await context.invitations.write(key, next, current.version);
  const membership = request.command === 'accept' ? await grantAcceptedMembership(context, written) : null;
  const entry = await audit(context, {
    command,
    tenantId,
    recordKind: 'invitation',
    recordId: current.invitationId,
    fromStatus: current.status,
    toStatus: written.status,
    outcome: 'applied',
    actor: request.actor ?? null,
    correlationId: request.correlationId ?? null,
    ...(flags.length > 0 ? { flags } : {}),
  });
  return { command, outcome: 'applied', invitation: publicInvitation(written), membership, audit: entry };
}
