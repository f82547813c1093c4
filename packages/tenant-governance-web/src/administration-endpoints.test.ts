import { closeGovernanceWebHosts, startGovernanceWeb } from './test-support/governance-web-host';

const commands = '/engine/tenant-administration/commands';
const dispatches = '/engine/tenant-invitations/delivery-dispatches';
const invite = {
  command: 'invite',
  tenantId: 'acme',
  inviteeKind: 'email',
  inviteeId: 'new@example.test',
  roles: ['member'],
};

afterEach(closeGovernanceWebHosts);

describe('POST /engine/tenant-administration/commands', () => {
  it('runs a command for an authorized caller and writes the principal subject as the audit actor', async () => {
    const web = await startGovernanceWeb();
    const answer = await web.post(commands, { ...invite, actor: 'someone-else' }, 'admin');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      command: 'invite',
      outcome: 'applied',
      invitation: { status: 'pending' },
    });
    expect(answer.body.audit.actor).toBe('operator-7');
    const stored = await web.governance.getInvitation('acme', answer.body.invitation.invitationId);
    expect(stored?.status).toBe('pending');
  });

  it('answers 401 without credentials, 403 for a refused policy, 403 without an authorize hook; nothing runs', async () => {
    const web = await startGovernanceWeb();
    expect((await web.post(commands, invite)).status).toBe(401);
    expect((await web.post(commands, invite, 'forged')).status).toBe(401);
    const refused = await web.post(commands, invite, 'reader');
    expect(refused.status).toBe(403);
    expect(await web.governance.listInvitations('acme')).toHaveLength(0);
    const bare = await startGovernanceWeb({ authorize: null });
    // No hook: nobody can be let in, so no credential would help (403, no challenge), as on every /engine surface.
    const none = await bare.post(commands, invite, 'admin');
    expect(none.status).toBe(403);
    expect(none.headers.get('www-authenticate')).toBeNull();
    expect(await bare.governance.listInvitations('acme')).toHaveLength(0);
  });

  it('answers 400 for an invalid body or malformed JSON and 413 for an oversized body', async () => {
    const web = await startGovernanceWeb({ web: { TenantAdministrationCommandMaxRequestBodyBytes: 1024 } });
    const unknownField = await web.post(commands, { ...invite, extra: true }, 'admin');
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.code).toBe('OPERATION_INPUT_INVALID');
    expect((await web.post(commands, { command: 'nope', tenantId: 'acme' }, 'admin')).status).toBe(400);
    expect((await web.post(commands, '{"command": "invite",', 'admin')).status).toBe(400);
    const big = await web.post(commands, { ...invite, metadata: { note: 'x'.repeat(2000) } }, 'admin');
    expect(big.status).toBe(413);
    expect(await web.governance.listInvitations('acme')).toHaveLength(0);
  });

  it('passes governance refusals through as problem details (404 for an unknown invitation)', async () => {
    const web = await startGovernanceWeb();
    const answer = await web.post(
      commands,
      { command: 'revoke', tenantId: 'acme', invitationId: 'missing-1' },
      'admin',
    );
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('INVITATION_NOT_FOUND');
  });

  it('follows the configured route, exclusion from the description, disabling and an explicit anonymous posture', async () => {
    const web = await startGovernanceWeb({
      web: {
        TenantAdministrationCommandRoutePattern: '/admin/tenant-commands',
        ExcludeTenantAdministrationEndpointFromDescription: true,
        EnableTenantInvitationDeliveryDispatchEndpoint: false,
      },
    });
    expect((await web.post('/admin/tenant-commands', invite, 'admin')).status).toBe(200);
    expect((await web.post(commands, invite, 'admin')).status).toBe(404);
    expect((await web.post(dispatches, { tenantId: 'acme', invitationId: 'x' }, 'admin')).status).toBe(404);
    const openapi = await web.request('/openapi/v1.json');
    expect(openapi.status).toBe(200);
    expect(Object.keys(openapi.body.paths)).not.toContain('/admin/tenant-commands');
    expect(Object.keys(openapi.body.paths)).toContain('/engine/tenant-invitations/delivery-status');
    expect(web.endpoints.endpoints.dispatch.state).toBe('disabled');

    const open = await startGovernanceWeb({ web: { RequireTenantAdministrationAuthorization: false } });
    expect((await open.post(commands, invite)).status).toBe(200);
    const warnings = open.engine.diagnostics().warnings ?? [];
    expect(JSON.stringify(warnings)).toContain('GOVERNANCE_ENDPOINT_UNGUARDED');
  });

  it('reports an enabled endpoint whose service is missing as configured, not mapped', async () => {
    const web = await startGovernanceWeb({ delivery: false });
    expect(web.endpoints.endpoints.command.state).toBe('mapped');
    expect(web.endpoints.endpoints.dispatch.state).toBe('configured');
    expect((await web.post(dispatches, { tenantId: 'acme', invitationId: 'x' }, 'admin')).status).toBe(404);
    expect(JSON.stringify(web.engine.diagnostics().warnings)).toContain('GOVERNANCE_ENDPOINT_NOT_MAPPED');
  });
});

describe('POST /engine/tenant-invitations/delivery-dispatches', () => {
  it('dispatches through the senders and answers one outcome per sender', async () => {
    const web = await startGovernanceWeb();
    const invitation = await web.invite();
    const answer = await web.post(
      dispatches,
      { tenantId: 'acme', invitationId: invitation.invitationId },
      'admin',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      tenantId: 'acme',
      invitationId: invitation.invitationId,
      channel: 'email',
      invitationStatus: 'sent',
      outcomes: [{ senderId: 'test-sender', outcome: 'dispatched', retryQueued: false }],
    });
    expect(answer.body.outcomes[0].providerMessageId).toMatch(/^pm-/);
    expect(JSON.stringify(answer.body)).not.toContain('invitee@example.test');
  });

  it('answers 401, 403, 400, 413 and 404 without dispatching', async () => {
    const web = await startGovernanceWeb({
      web: { TenantInvitationDeliveryDispatchMaxRequestBodyBytes: 512 },
    });
    const invitation = await web.invite();
    const body = { tenantId: 'acme', invitationId: invitation.invitationId };
    expect((await web.post(dispatches, body)).status).toBe(401);
    expect((await web.post(dispatches, body, 'reader')).status).toBe(403);
    expect((await web.post(dispatches, { ...body, surprise: 1 }, 'admin')).status).toBe(400);
    expect((await web.post(dispatches, '{"tenantId":', 'admin')).status).toBe(400);
    expect((await web.post(dispatches, { ...body, metadata: { a: 'x'.repeat(900) } }, 'admin')).status).toBe(
      413,
    );
    expect((await web.governance.getInvitation('acme', invitation.invitationId))?.status).toBe('pending');
    const missing = await web.post(dispatches, { tenantId: 'acme', invitationId: 'missing-1' }, 'admin');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('INVITATION_NOT_FOUND');
  });
});
