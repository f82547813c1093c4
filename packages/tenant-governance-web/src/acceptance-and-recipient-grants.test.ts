import type { AuthorizationDecision } from '@corekit/abstractions';
import type { AuthorizeRequest } from '@corekit/web-host';
import type { IncomingMessage } from 'node:http';
import { closeGovernanceWebHosts, startGovernanceWeb } from './test-support/governance-web-host';

const commands = '/engine/tenant-administration/commands';
const dispatches = '/engine/tenant-invitations/delivery-dispatches';
const furtherPolicies = [
  'tenant-governance.accept-on-behalf',
  'tenant-governance.delivery-dispatch-recipient',
  'invitations.redirect',
];

/**
 * `admin` holds every policy (subject operator-7); `operator` every policy but the two further grants
 * (subject operator-8; also refused the renamed `invitations.redirect`). Every policy asked is kept in `asked`.
 */
function grantingAuthorizer(asked: string[]): AuthorizeRequest {
  return (request: IncomingMessage, requirement): AuthorizationDecision => {
    const policy = requirement?.policy ?? '';
    asked.push(policy);
    const token = String(request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    if (token === 'admin') return { outcome: 'allowed', principal: { subject: 'operator-7' } };
    if (token === 'operator') {
      return furtherPolicies.includes(policy)
        ? { outcome: 'forbidden', reason: 'operator holds no further grant' }
        : { outcome: 'allowed', principal: { subject: 'operator-8' } };
    }
    return { outcome: 'unauthenticated', reason: 'pass a bearer token' };
  };
}

afterEach(closeGovernanceWebHosts);

describe('accepting an email invitation over the command endpoint', () => {
  it('the invitee’s acceptance needs its secret: without 403, wrong 403, right 200, again 409; no answer carries a hash', async () => {
    const web = await startGovernanceWeb({ authorize: grantingAuthorizer([]) });
    const invitation = await web.invite();
    const { 'test-sender': secret } = await web.governance.issueAcceptanceSecrets({
      tenantId: 'acme',
      invitationId: invitation.invitationId,
      channel: 'email',
      senderIds: ['test-sender'],
    });
    const accept = (extra: Record<string, unknown>) =>
      web.post(
        commands,
        {
          command: 'accept',
          tenantId: 'acme',
          invitationId: invitation.invitationId,
          principalId: 'user-9',
          ...extra,
        },
        'operator',
      );
    const missing = await accept({});
    expect([missing.status, missing.body.code]).toEqual([403, 'INVITATION_ACCEPTANCE_SECRET_REQUIRED']);
    const wrong = await accept({ acceptanceSecret: 'x'.repeat(43) });
    expect([wrong.status, wrong.body.code]).toEqual([403, 'INVITATION_ACCEPTANCE_SECRET_INVALID']);
    const right = await accept({ acceptanceSecret: secret });
    expect(right.status).toBe(200);
    expect(right.body.invitation).toMatchObject({ status: 'accepted', acceptanceMode: 'acceptance-secret' });
    expect(right.body.audit).toMatchObject({ actor: 'operator-8', flags: ['acceptance-secret-verified'] });
    const again = await accept({ acceptanceSecret: secret });
    expect([again.status, again.body.code]).toEqual([409, 'INVITATION_ACCEPTANCE_SECRET_USED']);
    for (const answer of [missing, wrong, right, again]) {
      expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toContain('sha256:');
    }
    expect(web.logger.text()).not.toContain(secret);
  });

  it('an acceptance on behalf needs the accept-on-behalf grant and is recorded with the authorized subject', async () => {
    const asked: string[] = [];
    const web = await startGovernanceWeb({ authorize: grantingAuthorizer(asked) });
    const invitation = await web.invite();
    const body = {
      command: 'accept',
      tenantId: 'acme',
      invitationId: invitation.invitationId,
      principalId: 'user-9',
      onBehalf: true,
      actor: 'someone-else',
    };
    const refused = await web.post(commands, body, 'operator');
    expect([refused.status, refused.body.code]).toEqual([403, 'INVITATION_ACCEPT_ON_BEHALF_FORBIDDEN']);
    expect((await web.governance.getInvitation('acme', invitation.invitationId))?.status).toBe('pending');
    expect(asked).toEqual(['tenant-governance.administration', 'tenant-governance.accept-on-behalf']);

    const accepted = await web.post(commands, body, 'admin');
    expect(accepted.status).toBe(200);
    expect(accepted.body.invitation).toMatchObject({
      status: 'accepted',
      acceptanceMode: 'on-behalf',
      acceptedByActor: 'operator-7',
    });
    expect(accepted.body.audit).toMatchObject({ actor: 'operator-7', flags: ['accepted-on-behalf'] });
    expect((await web.governance.auditEntries(1))[0]).toMatchObject({
      command: 'accept',
      actor: 'operator-7',
      flags: ['accepted-on-behalf'],
    });
  });

  it('an authorizer that names no subject cannot accept on behalf (nobody to record)', async () => {
    const web = await startGovernanceWeb({ authorize: () => true });
    const invitation = await web.invite();
    const answer = await web.post(commands, {
      command: 'accept',
      tenantId: 'acme',
      invitationId: invitation.invitationId,
      principalId: 'user-9',
      onBehalf: true,
      actor: 'claimed-admin',
    });
    expect([answer.status, answer.body.code]).toEqual([403, 'INVITATION_ACCEPT_ON_BEHALF_SUBJECT_UNKNOWN']);
  });
});

describe('a dispatch that supplies its own recipient', () => {
  it('needs the supplied-recipient grant (403 without it, nothing sent) and is recorded with who and when, never the address', async () => {
    const asked: string[] = [];
    const web = await startGovernanceWeb({
      authorize: grantingAuthorizer(asked),
      web: { TenantInvitationDeliveryDispatchRecipientAuthorizationPolicy: 'invitations.redirect' },
    });
    const invitation = await web.invite();
    const redirect = {
      tenantId: 'acme',
      invitationId: invitation.invitationId,
      metadata: { recipientEmail: 'elsewhere@redirect.test' },
    };
    const refused = await web.post(dispatches, redirect, 'operator');
    expect([refused.status, refused.body.code]).toEqual([403, 'DELIVERY_RECIPIENT_SUPPLY_FORBIDDEN']);
    expect(asked).toEqual(['tenant-governance.delivery-dispatch', 'invitations.redirect']);
    expect((await web.governance.getInvitation('acme', invitation.invitationId))?.status).toBe('pending');

    // Without a supplied address the operator's own grant is enough, and nothing is recorded as supplied.
    const plain = await web.post(
      dispatches,
      { tenantId: 'acme', invitationId: invitation.invitationId },
      'operator',
    );
    expect(plain.status).toBe(200);
    expect((await web.governance.auditEntries()).some((entry) => entry.command === 'dispatch')).toBe(false);

    const granted = await web.post(dispatches, redirect, 'admin');
    expect(granted.status).toBe(200);
    expect(granted.body.outcomes[0]).toMatchObject({ outcome: 'dispatched' });
    const [entry] = (await web.governance.auditEntries()).filter((item) => item.command === 'dispatch');
    expect(entry).toMatchObject({
      recordId: invitation.invitationId,
      actor: 'operator-7',
      flags: ['recipient-supplied'],
      atUtc: web.now().toISOString(),
    });
    expect(JSON.stringify([granted.body, web.logger.text()])).not.toContain('elsewhere@redirect.test');
  });

  it('the surfaces report both further policies as configured', async () => {
    const web = await startGovernanceWeb({
      web: { TenantAdministrationAcceptOnBehalfAuthorizationPolicy: 'invitations.accept-for' },
    });
    const surfaces = JSON.stringify(web.engine.technologySurfaces());
    expect(surfaces).toContain(
      '"additionalAuthorizationPolicies":{"acceptOnBehalf":"invitations.accept-for"}',
    );
    expect(surfaces).toContain(
      '"deliveryDispatchAdditionalAuthorizationPolicies":{"suppliedRecipient":"tenant-governance.delivery-dispatch-recipient"}',
    );
  });
});
