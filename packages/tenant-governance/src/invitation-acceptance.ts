import type { ParsedAdministrationRequest } from './administration-request';
import { matchesAcceptanceSecret } from './acceptance-secret';
import { isWellFormedPrincipalId, membershipKey, refuse, type GovernanceContext } from './governance-context';
import type { AuditFlag, TenantInvitation } from './governance-records';

type AcceptRequest = Extract<ParsedAdministrationRequest, { command: 'accept' }>;

/**
 * Refuses a secret presented again after the invitation was accepted with it (409
 * INVITATION_ACCEPTANCE_SECRET_USED), before the state machine would answer a plain transition conflict.
 */
export function refuseUsedAcceptanceSecret(
  context: GovernanceContext,
  request: AcceptRequest,
  current: TenantInvitation,
): void {
  if (
    current.status === 'accepted' &&
    request.acceptanceSecret !== undefined &&
    matchesAcceptanceSecret(request.acceptanceSecret, current.acceptanceSecretHashes)
  ) {
    refuse(
      context,
      'accept',
      request.tenantId,
      'conflict',
      'INVITATION_ACCEPTANCE_SECRET_USED',
      'This acceptance secret was already used: the invitation is accepted',
    );
  }
}

/** Who proves what: the secret for the invitee's own acceptance of an email invitation, or an actor on behalf. */
function acceptanceProof(
  context: GovernanceContext,
  request: AcceptRequest,
  current: TenantInvitation,
): { mode: NonNullable<TenantInvitation['acceptanceMode']>; flags: AuditFlag[] } {
  const refuseWith = (kind: 'invalid-input' | 'forbidden', code: string, message: string) =>
    refuse(context, 'accept', request.tenantId, kind, code, message);
  if (request.onBehalf) {
    if (request.acceptanceSecret !== undefined) {
      refuseWith(
        'invalid-input',
        'INVITATION_ACCEPT_ON_BEHALF_WITH_SECRET',
        'An acceptance on behalf carries no acceptance secret; send one or the other',
      );
    }
    if (!request.actor) {
      refuseWith(
        'invalid-input',
        'INVITATION_ACCEPT_ON_BEHALF_ACTOR_REQUIRED',
        'An acceptance on behalf must name the administrator (actor) who accepts',
      );
    }
    return { mode: 'on-behalf', flags: ['accepted-on-behalf'] };
  }
  if (request.acceptanceSecret !== undefined) {
    if (!matchesAcceptanceSecret(request.acceptanceSecret, current.acceptanceSecretHashes)) {
      refuseWith(
        'forbidden',
        'INVITATION_ACCEPTANCE_SECRET_INVALID',
        'The acceptance secret does not match this invitation; use the newest invitation message',
      );
    }
    return { mode: 'acceptance-secret', flags: ['acceptance-secret-verified'] };
  }
  if (current.inviteeKind === 'email') {
    refuseWith(
      'forbidden',
      'INVITATION_ACCEPTANCE_SECRET_REQUIRED',
      'Accepting an email invitation needs the acceptance secret its message carried (or an administrator accepting on behalf)',
    );
  }
  return { mode: 'identity', flags: [] };
}

/**
 * The accepted invitation, after the checks of `accept`: a well-formed principal, the user invitee itself
 * for a user invitation, not a suspended member, and the proof (`acceptanceProof`). Answers the audit flags.
 */
export async function acceptedInvitation(
  context: GovernanceContext,
  request: AcceptRequest,
  current: TenantInvitation,
  now: Date,
): Promise<{ next: TenantInvitation; flags: AuditFlag[] }> {
  const { tenantId } = request;
  if (!isWellFormedPrincipalId(request.principalId)) {
    refuse(
      context,
      'accept',
      tenantId,
      'invalid-input',
      'PRINCIPAL_INVALID',
      'The principal id is not well formed',
    );
  }
  if (
    current.inviteeKind === 'user' &&
    (request.principalKind !== 'user' || request.principalId !== current.inviteeId)
  ) {
    refuse(
      context,
      'accept',
      tenantId,
      'forbidden',
      'INVITATION_PRINCIPAL_MISMATCH',
      'The invitation was made for another user',
    );
  }
  const proof = acceptanceProof(context, request, current);
  const member = await context.memberships.get(
    membershipKey(tenantId, request.principalKind, request.principalId),
  );
  if (member?.status === 'suspended') {
    refuse(
      context,
      'accept',
      tenantId,
      'conflict',
      'MEMBERSHIP_SUSPENDED',
      'The principal is a suspended member; reactivate the membership instead',
    );
  }
  return {
    next: {
      ...current,
      status: 'accepted',
      acceptedAtUtc: now.toISOString(),
      acceptedBy: { principalKind: request.principalKind, principalId: request.principalId },
      acceptanceMode: proof.mode,
      acceptedByActor: request.actor ?? null,
    },
    flags: proof.flags,
  };
}
