import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addMultiTenancy } from '@corekit/tenancy';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { hashAcceptanceSecret } from './acceptance-secret';
import { addTenantGovernance } from './add-tenant-governance';
import { addTenantGovernanceDelivery } from './add-tenant-governance-delivery';
import type { InvitationSender, InvitationSendRequest } from './delivery-seams';

/** A sender that keeps every request it is handed (the message a real sender would render). */
function capturingSender(id: string, sent: InvitationSendRequest[]): InvitationSender {
  return {
    id,
    supportedChannels: ['email'],
    async send(request) {
      sent.push(request);
      return { outcome: 'dispatched', providerMessageId: `pm-${sent.length}` };
    },
  };
}

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** Tenancy (acme), governance and delivery on the File store in a fresh folder, with a movable clock. */
async function start(senderIds: readonly string[] = ['mailer']) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'acceptance-secret-'));
  folders.push(root);
  const directory = path.join(root, 'stores');
  let now = new Date('2030-01-01T00:00:00.000Z');
  const clock = () => now;
  const { builder, logger } = createTestEngineBuilder({
    contentRoot: root,
    configuration: { Engine: { Stores: { Provider: 'File', Directory: directory } } },
  });
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
  const governance = addTenantGovernance(
    builder,
    { InvitationExpirySweepIntervalSeconds: 0 },
    { now: clock },
  );
  const delivery = addTenantGovernanceDelivery(
    builder,
    { EnableInvitationDeliveryRetryQueue: true, InvitationDeliveryRetryDelaySeconds: 0 },
    { now: clock },
  );
  const sent: InvitationSendRequest[] = [];
  for (const id of senderIds) delivery.senders.add(capturingSender(id, sent));
  const engine = builder.build();
  await engine.start();
  const invite = async () =>
    (
      await governance.execute({
        command: 'invite',
        tenantId: 'acme',
        inviteeKind: 'email',
        inviteeId: 'invitee@example.test',
        roles: ['member'],
        expiresInSeconds: 3600,
      })
    ).invitation!.invitationId;
  const dispatch = async (invitationId: string, metadata?: Record<string, string>, actor?: string) => {
    await delivery.dispatcher.dispatch({
      tenantId: 'acme',
      invitationId,
      ...(metadata ? { metadata } : {}),
      ...(actor ? { actor } : {}),
    });
    return sent.at(-1)!.acceptanceSecret;
  };
  const accept = (invitationId: string, extra: Record<string, unknown> = {}) =>
    governance.execute({
      command: 'accept',
      tenantId: 'acme',
      invitationId,
      principalId: 'user-9',
      ...extra,
    });
  return {
    engine,
    governance,
    logger,
    sent,
    invite,
    dispatch,
    accept,
    storeFile: () => readFileSync(path.join(directory, 'tenant-governance-invitations.json'), 'utf8'),
    advance(seconds: number) {
      now = new Date(now.getTime() + seconds * 1000);
    },
  };
}

describe('acceptance secret of an email invitation', () => {
  it('each delivery carries a fresh 256-bit base64url secret; the store keeps only its SHA-256 hash', async () => {
    const host = await start();
    try {
      const invitationId = await host.invite();
      const secret = await host.dispatch(invitationId);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const file = host.storeFile();
      expect(file).not.toContain(secret);
      expect(file).toContain(hashAcceptanceSecret(secret));
      // No read answers the hash (nor, of course, the secret).
      const read = JSON.stringify([
        await host.governance.getInvitation('acme', invitationId),
        await host.governance.listInvitations('acme'),
      ]);
      expect(read).not.toContain('sha256:');
      expect(read).not.toContain(secret);
      expect(host.sent[0]!.invitation).not.toHaveProperty('acceptanceSecretHashes');
    } finally {
      await host.engine.stop();
    }
  });

  it('the invitee’s acceptance without the secret, with a wrong one, a used one or after expiry is refused with distinct codes', async () => {
    const host = await start();
    try {
      const invitationId = await host.invite();
      const secret = await host.dispatch(invitationId);
      await expect(host.accept(invitationId)).rejects.toMatchObject({
        kind: 'forbidden',
        code: 'INVITATION_ACCEPTANCE_SECRET_REQUIRED',
      });
      await expect(host.accept(invitationId, { acceptanceSecret: 'A'.repeat(43) })).rejects.toMatchObject({
        kind: 'forbidden',
        code: 'INVITATION_ACCEPTANCE_SECRET_INVALID',
      });
      expect((await host.governance.getInvitation('acme', invitationId))?.status).toBe('sent');

      const accepted = await host.accept(invitationId, { acceptanceSecret: secret });
      expect(accepted.invitation).toMatchObject({
        status: 'accepted',
        acceptanceMode: 'acceptance-secret',
        acceptedBy: { principalKind: 'user', principalId: 'user-9' },
      });
      expect(accepted.audit.flags).toEqual(['acceptance-secret-verified']);
      expect(accepted.membership).toMatchObject({ status: 'active', principalId: 'user-9' });
      await expect(host.accept(invitationId, { acceptanceSecret: secret })).rejects.toMatchObject({
        kind: 'conflict',
        code: 'INVITATION_ACCEPTANCE_SECRET_USED',
      });

      const second = await host.invite();
      const late = await host.dispatch(second);
      host.advance(3601);
      await expect(host.accept(second, { acceptanceSecret: late })).rejects.toMatchObject({
        kind: 'conflict',
        code: 'INVITATION_EXPIRED',
      });
      const everything = JSON.stringify([host.logger.text(), await host.governance.auditEntries()]);
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(late);
      expect(everything).not.toContain('sha256:');
    } finally {
      await host.engine.stop();
    }
  });

  it('a new dispatch re-mints: the sender’s older secret stops working, another sender’s stays valid', async () => {
    const host = await start(['first', 'second']);
    try {
      const invitationId = await host.invite();
      await host.dispatch(invitationId);
      const [firstOld, secondOld] = host.sent.map((request) => request.acceptanceSecret);
      expect(firstOld).not.toBe(secondOld);
      await host.dispatch(invitationId);
      const firstNew = host.sent[2]!.acceptanceSecret;
      expect(host.sent[2]!.invitation.invitationId).toBe(invitationId);
      await expect(host.accept(invitationId, { acceptanceSecret: firstOld })).rejects.toMatchObject({
        code: 'INVITATION_ACCEPTANCE_SECRET_INVALID',
      });
      await expect(host.accept(invitationId, { acceptanceSecret: secondOld })).rejects.toMatchObject({
        code: 'INVITATION_ACCEPTANCE_SECRET_INVALID',
      });
      expect(firstNew).not.toBe(firstOld);
      expect((await host.accept(invitationId, { acceptanceSecret: firstNew })).invitation?.status).toBe(
        'accepted',
      );
    } finally {
      await host.engine.stop();
    }
  });

  it('an administrator accepts on behalf without a secret, recorded with the actor on the invitation and the audit entry', async () => {
    const host = await start();
    try {
      const invitationId = await host.invite();
      await host.dispatch(invitationId);
      await expect(host.accept(invitationId, { onBehalf: true })).rejects.toMatchObject({
        code: 'INVITATION_ACCEPT_ON_BEHALF_ACTOR_REQUIRED',
      });
      const accepted = await host.accept(invitationId, { onBehalf: true, actor: 'admin-3' });
      expect(accepted.invitation).toMatchObject({
        status: 'accepted',
        acceptanceMode: 'on-behalf',
        acceptedByActor: 'admin-3',
      });
      expect(accepted.audit).toMatchObject({ actor: 'admin-3', flags: ['accepted-on-behalf'] });
      const [latest] = await host.governance.auditEntries(1);
      expect(latest).toMatchObject({ command: 'accept', actor: 'admin-3', flags: ['accepted-on-behalf'] });
    } finally {
      await host.engine.stop();
    }
  });

  it('a dispatch that supplies its own recipient is recorded on the audit trail with who and when, never the address', async () => {
    const host = await start();
    try {
      const invitationId = await host.invite();
      await host.dispatch(invitationId);
      expect((await host.governance.auditEntries()).some((entry) => entry.command === 'dispatch')).toBe(
        false,
      );
      await host.dispatch(invitationId, { recipientEmail: 'redirect@elsewhere.test' }, 'operator-5');
      const [entry] = (await host.governance.auditEntries()).filter((item) => item.command === 'dispatch');
      expect(entry).toMatchObject({
        recordId: invitationId,
        actor: 'operator-5',
        flags: ['recipient-supplied'],
        atUtc: '2030-01-01T00:00:00.000Z',
      });
      expect(JSON.stringify([host.logger.text(), entry])).not.toContain('redirect@elsewhere.test');
    } finally {
      await host.engine.stop();
    }
  });
});
