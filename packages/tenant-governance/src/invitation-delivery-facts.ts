import { OperationError } from '@corekit/abstractions';
import { mintAcceptanceSecret, withAcceptanceSecret } from './acceptance-secret';
import { assertTenant, audit, invitationKey, type GovernanceContext } from './governance-context';
import type { TenantAdministrationAuditEntry } from './governance-records';
import { expireIfOverdue } from './invitation-commands';
import { liveInvitationStatuses } from './invitation-state-machine';
import { versionConflictCode } from './record-store';

/** Which delivery a secret is minted for. */
export interface AcceptanceSecretTarget {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel: string;
  readonly senderId: string;
}

/** Compare-and-set attempts before a secret write gives up on concurrent writers. */
const writeAttempts = 5;

function notLive(status: string): OperationError {
  return new OperationError(
    'conflict',
    'INVITATION_NOT_DELIVERABLE',
    `An ${status} invitation is not delivered`,
  );
}

/**
 * Mints a new acceptance secret for one delivery of a live invitation, stores only its hash (replacing the
 * previous hash of the same channel + sender) and answers the plain secret, which the caller puts into that
 * one message and nowhere else. Retries the compare-and-set when a command changed the record meanwhile.
 */
export async function issueAcceptanceSecret(
  context: GovernanceContext,
  target: AcceptanceSecretTarget,
): Promise<string> {
  assertTenant(context, 'issue-acceptance-secret', target.tenantId);
  const key = invitationKey(target.tenantId, target.invitationId);
  for (let attempt = 1; ; attempt++) {
    const stored = await context.invitations.get(key);
    if (!stored) {
      throw new OperationError('not-found', 'INVITATION_NOT_FOUND', 'The invitation does not exist');
    }
    const current = await expireIfOverdue(context, stored);
    if (!liveInvitationStatuses.includes(current.status)) throw notLive(current.status);
    const { secret, hash } = mintAcceptanceSecret();
    const hashes = withAcceptanceSecret(current.acceptanceSecretHashes, {
      channel: target.channel,
      senderId: target.senderId,
      hash,
      mintedAtUtc: context.now().toISOString(),
    });
    try {
      await context.invitations.write(key, { ...current, acceptanceSecretHashes: hashes }, current.version);
      return secret;
    } catch (error) {
      const lost = (error as { code?: unknown })?.code === versionConflictCode;
      if (!lost || attempt >= writeAttempts) throw error;
    }
  }
}

/**
 * Writes the audit entry of a dispatch whose metadata named its own recipient address: who asked (`actor`),
 * when, and the flag `recipient-supplied`. The address is not recorded anywhere.
 */
export async function recordSuppliedRecipient(
  context: GovernanceContext,
  request: {
    readonly tenantId: string;
    readonly invitationId: string;
    readonly actor?: string | null;
    readonly correlationId?: string | null;
  },
): Promise<TenantAdministrationAuditEntry> {
  assertTenant(context, 'dispatch', request.tenantId);
  const invitation = await context.invitations.get(invitationKey(request.tenantId, request.invitationId));
  if (!invitation) {
    throw new OperationError('not-found', 'INVITATION_NOT_FOUND', 'The invitation does not exist');
  }
  return audit(context, {
    command: 'dispatch',
    tenantId: request.tenantId,
    recordKind: 'invitation',
    recordId: request.invitationId,
    fromStatus: invitation.status,
    toStatus: invitation.status,
    outcome: 'unchanged',
    actor: request.actor ?? null,
    correlationId: request.correlationId ?? null,
    flags: ['recipient-supplied'],
  });
}
