import { allTenants } from '@corekit/abstractions';
import { SignJWT, jwtVerify } from 'jose';
import type { AuthorizeRequest } from '@corekit/web-host';
import {
  closeGovernanceWebHosts,
  startGovernanceWeb,
  testSigningSecret,
} from './test-support/governance-web-host';

const observations = '/engine/tenant-invitations/delivery-status/observations';

afterEach(closeGovernanceWebHosts);

async function withObservations(web: Record<string, unknown> = {}) {
  const host = await startGovernanceWeb({
    web: { RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch: false, ...web },
  });
  const first = await host.invite('one@example.test');
  const second = await host.invite('two@example.test');
  await host.delivery!.status.submit([
    {
      providerKey: 'relay',
      providerEventId: 'a1',
      tenantId: 'acme',
      invitationId: first.invitationId,
      status: 'delivered',
      providerMessageId: 'pm-one',
    },
    {
      providerKey: 'relay',
      providerEventId: 'b1',
      tenantId: 'acme',
      invitationId: second.invitationId,
      status: 'bounced',
      providerMessageId: 'pm-two',
    },
    {
      providerKey: 'other',
      providerEventId: 'b2',
      tenantId: 'acme',
      invitationId: second.invitationId,
      status: 'deferred',
      providerMessageId: 'pm-two',
    },
  ]);
  const get = (query: string, token = 'reader') =>
    host.request(`${observations}${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { host, first, second, get };
}

describe('GET /engine/tenant-invitations/delivery-status/observations', () => {
  it('filters, rolls up, drills down by attention category and provider message, and gives hints', async () => {
    const { second, get } = await withObservations();
    const all = await get('');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({
      totalMatched: 3,
      limit: 50,
      defaultLimit: 50,
      maxLimit: 200,
      limitClamped: false,
    });
    expect(all.body.rollups.byStatus).toEqual({ delivered: 1, bounced: 1, deferred: 1 });
    const bounced = await get('?attentionCategory=bounced');
    expect(
      bounced.body.observations.every(
        (item: { invitationId: string }) => item.invitationId === second.invitationId,
      ),
    ).toBe(true);
    expect(bounced.body.attention[0]).toMatchObject({
      category: 'bounced',
      actions: ['verify-recipient-address', 'revoke-and-reinvite'],
    });
    expect(bounced.body.remediationHints.bounced.actions).toContain('revoke-and-reinvite');
    const byMessage = await get('?providerMessageId=pm-one');
    expect(byMessage.body.totalMatched).toBe(1);
    const byAction = await get('?remediationAction=verify-recipient-address&providerKey=other');
    expect(byAction.body.totalMatched).toBe(1);
  });

  it('applies the default limit and clamps one over the maximum, saying so', async () => {
    const { get } = await withObservations({
      TenantInvitationDeliveryStatusObservationDefaultLimit: 1,
      TenantInvitationDeliveryStatusObservationMaxLimit: 2,
    });
    const first = await get('');
    expect(first.body).toMatchObject({
      limit: 1,
      requestedLimit: null,
      truncated: true,
      limitClamped: false,
    });
    expect(first.body.observations).toHaveLength(1);
    const clamped = await get('?limit=500');
    expect(clamped.body).toMatchObject({ limit: 2, requestedLimit: 500, maxLimit: 2, limitClamped: true });
    expect(clamped.body.observations).toHaveLength(2);
  });

  it('answers 401, 403 and 400 for an unknown or malformed filter', async () => {
    const { get } = await withObservations();
    expect((await get('', '')).status).toBe(401);
    expect((await get('', 'stranger')).status).toBe(401);
    const host2 = await startGovernanceWeb({ authorize: () => ({ outcome: 'forbidden' }) });
    expect((await host2.request(observations)).status).toBe(403);
    expect((await get('?recipient=x')).status).toBe(400);
    expect((await get('?status=opened')).status).toBe(400);
    expect((await get('?limit=0')).status).toBe(400);
  });
});

describe('HTTP proof files', () => {
  it('serves a live http-file challenge anonymously as text/plain, and 404 for anything else', async () => {
    const host = await startGovernanceWeb({ authorize: null });
    await host.governance.declareDomain({ tenantId: 'acme', domainName: 'acme.example' });
    const { challenge, plan } = await host.delivery!.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'acme.example',
      method: 'http-file',
    });
    expect(plan.httpFile!.path).toBe(`/.well-known/core-domain-verification/${challenge.challengeId}`);
    const served = await host.request(plan.httpFile!.path);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(served.text).toBe(challenge.token);
    expect((await host.request('/.well-known/core-domain-verification/unknown')).status).toBe(404);
    host.advance(86_401);
    expect((await host.request(plan.httpFile!.path)).status).toBe(404);
    const openapi = await host.request('/openapi/v1.json');
    expect(Object.keys(openapi.body.paths).join(' ')).not.toContain('core-domain-verification');
  });

  it('is not mapped when disabled', async () => {
    const host = await startGovernanceWeb({ web: { EnableTenantDomainHttpProofEndpoint: false } });
    expect(host.endpoints.endpoints.proofFiles.state).toBe('disabled');
  });
});

describe('a bearer-token scheme: signed JWTs mapped to policies (jose)', () => {
  const key = new TextEncoder().encode('jwt-test-key-that-is-long-enough-for-hs256');
  const authorize: AuthorizeRequest = async (request, requirement) => {
    const token = String(request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    if (!token) return { outcome: 'unauthenticated', reason: 'a bearer token is required' };
    try {
      const { payload } = await jwtVerify(token, key, {
        issuer: 'https://issuer.test',
        audience: 'core-governance',
      });
      const policies = Array.isArray(payload.policies) ? payload.policies : [];
      const tenants = Array.isArray(payload.tenants) ? payload.tenants : [];
      const tenantId = requirement?.resource?.tenantId;
      const inTenant =
        tenants.includes(allTenants) ||
        (tenantId !== undefined && tenantId !== allTenants && tenants.includes(tenantId));
      return requirement?.policy && policies.includes(requirement.policy) && inTenant
        ? { outcome: 'allowed', principal: { subject: payload.sub ?? null, claims: payload } }
        : { outcome: 'forbidden', reason: `the token does not grant ${requirement?.policy} here` };
    } catch {
      return { outcome: 'unauthenticated', reason: 'the token is invalid or expired' };
    }
  };
  const sign = (policies: string[], secret = key, tenants: string[] = ['acme']) =>
    new SignJWT({ policies, tenants })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('admin-user-1')
      .setIssuer('https://issuer.test')
      .setAudience('core-governance')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(secret);

  it('allows a token granting the policy, refuses one that does not (403) and a forged one (401)', async () => {
    const host = await startGovernanceWeb({
      authorize,
      web: { TenantInvitationDeliveryStatusCallbackSigningSecret: testSigningSecret },
    });
    const invite = {
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: 'jwt@example.test',
      roles: ['member'],
    };
    const commands = '/engine/tenant-administration/commands';
    const granted = await host.post(commands, invite, await sign(['tenant-governance.administration']));
    expect(granted.status).toBe(200);
    expect(granted.body.audit.actor).toBe('admin-user-1');
    expect(
      (await host.post(commands, invite, await sign(['tenant-governance.delivery-dispatch']))).status,
    ).toBe(403);
    const forged = await sign(
      ['tenant-governance.administration'],
      new TextEncoder().encode('another-key-another-key-another-key!'),
    );
    expect((await host.post(commands, invite, forged)).status).toBe(401);
  });

  it("checks the token's tenants claim against resource.tenantId (the README's per-tenant authorizer)", async () => {
    const host = await startGovernanceWeb({ authorize });
    const invite = (tenantId: string) => ({
      command: 'invite',
      tenantId,
      inviteeKind: 'email',
      inviteeId: 'jwt@example.test',
      roles: ['member'],
    });
    const commands = '/engine/tenant-administration/commands';
    const acmeOnly = await sign(['tenant-governance.administration'], key, ['acme']);
    expect((await host.post(commands, invite('acme'), acmeOnly)).status).toBe(200);
    expect((await host.post(commands, invite('globex'), acmeOnly)).status).toBe(403);
    expect(await host.governance.listInvitations('globex')).toHaveLength(0);
    const reader = ['tenant-governance.delivery-status-observations'];
    const observations = '/engine/tenant-invitations/delivery-status/observations';
    const read = async (query: string, tenants: string[]) =>
      (
        await host.request(`${observations}${query}`, {
          headers: { authorization: `Bearer ${await sign(reader, key, tenants)}` },
        })
      ).status;
    expect(await read('?tenantId=acme', ['acme'])).toBe(200);
    expect(await read('', ['acme'])).toBe(403);
    expect(await read('', [allTenants])).toBe(200);
  });
});
