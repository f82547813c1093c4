import { OperationError } from '@corekit/abstractions';
import { mintAcceptanceSecret, withAcceptanceSecret } from './acceptance-secret';
import { assertTenant, audit, invitationKey, type GovernanceContext } from './governance-context';
import type { TenantAdministrationAuditEntry } from './governance-records';
import { expireIfOverdue } from './invitation-commands';
import { liveInvitationStatuses } from './invitation-state-machine';
import { versionConflictCode } from './record-store';

/** Which deliveries secrets are minted for: one per sender of one channel. */
export interface AcceptanceSecretTarget {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel: string;
  readonly senderIds: readonly string[];
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
 * Mints a new acceptance secret per sender for one delivery pass of a live invitation, stores only their
 * hashes in one write (each replacing the previous hash of the same channel + sender) and answers the plain
 * secrets by sender id, which the caller puts into those messages and nowhere else. One write before any
 * message goes out: when it fails, no sender has sent anything. Retries the compare-and-set when a command
 * changed the record meanwhile.
 */
export async function issueAcceptanceSecrets(
  context: GovernanceContext,
  target: AcceptanceSecretTarget,
): Promise<Record<string, string>> {
  assertTenant(context, 'issue-acceptance-secret', target.tenantId);
  const key = invitationKey(target.tenantId, target.invitationId);
  for (let attempt = 1; ; attempt++) {
    const stored = await context.invitations.get(key);
    if (!stored) {
      throw new OperationError('not-found', 'INVITATION_NOT_FOUND', 'The invitation does not exist');
    }
    const current = await expireIfOverdue(context, stored);
    if (!liveInvitationStatuses.includes(current.status)) throw notLive(current.status);
    const secrets: Record<string, string> = {};
    let hashes = current.acceptanceSecretHashes;
    for (const senderId of new Set(target.senderIds)) {
      const { secret, hash } = mintAcceptanceSecret();
      secrets[senderId] = secret;
      hashes = withAcceptanceSecret(hashes, {
        channel: target.channel,
        senderId,
        hash,
        mintedAtUtc: context.now().toISOString(),
      });
    }
    try {
      await context.invitations.write(key, { ...current, acceptanceSecretHashes: hashes }, current.version);
      return secrets;
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
