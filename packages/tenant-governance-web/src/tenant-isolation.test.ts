import { allTenants } from '@corekit/abstractions';
import { invitationDeliveryStatusKey } from '@corekit/tenant-governance';
import type { EndpointFamily } from './endpoint-families';
import { requestTenant, tenantResourceCodes } from './tenant-resource';
import { closeGovernanceWebHosts, startGovernanceWeb } from './test-support/governance-web-host';
import {
  commandBodies,
  fixture,
  guardedFamilies,
  tenantRequests,
  tenantState,
  type TenantRequest,
  type Web,
} from './test-support/tenant-isolation-requests';

afterEach(closeGovernanceWebHosts);

function send(web: Web, family: EndpointFamily, request: TenantRequest, token: string) {
  const plan = web.endpoints.endpoints[family];
  const path = `${plan.routePattern}${request.query ? `?${request.query}` : ''}`;
  return plan.method === 'GET'
    ? web.request(path, { headers: { authorization: `Bearer ${token}` } })
    : web.post(path, request.body, token);
}

describe('tenant isolation of the governance endpoints', () => {
  it('every guarded endpoint declares the resource it acts on, so the authorizer can decide per tenant', async () => {
    const web = await startGovernanceWeb();
    const families = guardedFamilies(web);
    expect(families.sort()).toEqual(['callback', 'command', 'dispatch', 'observations']);
    for (const family of families) {
      const operation = web.engine.operations.find(web.endpoints.endpoints[family].operationId);
      expect({ family, declared: typeof operation?.authorizationResource }).toEqual({
        family,
        declared: 'function',
      });
      expect({ family, covered: tenantRequests[family] !== undefined }).toEqual({ family, covered: true });
    }
  });

  it("a token for acme gets 403 on every command, dispatch, observation and callback of globex, and globex's own token is let in", async () => {
    const web = await startGovernanceWeb();
    const globex = await fixture(web, 'globex');
    const before = await tenantState(web, 'globex');
    for (const family of guardedFamilies(web)) {
      for (const request of tenantRequests[family]!.requests(globex)) {
        const answer = await send(web, family, request, 'tenant-acme');
        expect({ family, request: request.label, status: answer.status, code: answer.body?.code }).toEqual({
          family,
          request: request.label,
          status: 403,
          code: 'FORBIDDEN',
        });
      }
    }
    expect(await tenantState(web, 'globex')).toBe(before);
    for (const family of guardedFamilies(web)) {
      const { scope, requests } = tenantRequests[family]!;
      for (const request of requests(globex)) {
        const answer = await send(web, family, request, 'tenant-globex');
        const refused = answer.status === 403;
        expect({ family, request: request.label, refused }).toEqual({
          family,
          request: request.label,
          refused: scope === 'all-tenants',
        });
      }
    }
  });

  it('the authorizer sees resource.tenantId, kind and id of the record the request names', async () => {
    const web = await startGovernanceWeb();
    const globex = await fixture(web, 'globex');
    web.asked.length = 0;
    await web.post(
      web.endpoints.endpoints.command.routePattern,
      commandBodies.revoke(globex),
      'tenant-globex',
    );
    await web.post(
      web.endpoints.endpoints.command.routePattern,
      commandBodies['remove-member'](globex),
      'admin',
    );
    await web.post(
      web.endpoints.endpoints.dispatch.routePattern,
      { ...globex, principalId: undefined },
      'admin',
    );
    await web.request(`${web.endpoints.endpoints.observations.routePattern}?tenantId=globex`, {
      headers: { authorization: 'Bearer tenant-globex' },
    });
    expect(web.asked.map((requirement) => [requirement.policy, requirement.resource])).toEqual([
      [
        'tenant-governance.administration',
        { tenantId: 'globex', kind: 'tenant-invitation', id: globex.invitationId },
      ],
      [
        'tenant-governance.administration',
        { tenantId: 'globex', kind: 'tenant-membership', id: 'globex-member' },
      ],
      [
        'tenant-governance.delivery-dispatch',
        { tenantId: 'globex', kind: 'tenant-invitation-delivery', id: globex.invitationId },
      ],
      [
        'tenant-governance.delivery-status-observations',
        { tenantId: 'globex', kind: 'tenant-invitation-delivery-observations' },
      ],
    ]);
  });

  it('neither the query nor a padded or wildcard tenantId moves a command or a dispatch into another tenant', async () => {
    const web = await startGovernanceWeb();
    const acme = await fixture(web, 'acme');
    const globex = await fixture(web, 'globex');
    const before = [await tenantState(web, 'acme'), await tenantState(web, 'globex')];
    const commands = web.endpoints.endpoints.command.routePattern;
    const dispatches = web.endpoints.endpoints.dispatch.routePattern;
    web.asked.length = 0;
    for (const token of ['tenant-acme', 'tenant-globex', 'admin']) {
      const moved = await web.post(`${commands}?tenantId=globex`, commandBodies.revoke(acme), token);
      expect([token, moved.status, moved.body.code]).toEqual([token, 400, tenantResourceCodes.conflict]);
      const movedBack = await web.post(`${commands}?tenantId=acme`, commandBodies.revoke(globex), token);
      expect([token, movedBack.status, movedBack.body.code]).toEqual([
        token,
        400,
        tenantResourceCodes.conflict,
      ]);
      const dispatched = await web.post(
        `${dispatches}?tenantId=acme`,
        { tenantId: 'globex', invitationId: globex.invitationId },
        token,
      );
      expect([token, dispatched.status, dispatched.body.code]).toEqual([
        token,
        400,
        tenantResourceCodes.conflict,
      ]);
      for (const tenantId of [' globex', 'globex ', allTenants, 42, ['acme', 'globex']]) {
        const odd = await web.post(commands, { ...commandBodies.revoke(globex), tenantId }, token);
        expect([token, tenantId, odd.status, odd.body.code]).toEqual([
          token,
          tenantId,
          400,
          tenantResourceCodes.invalid,
        ]);
      }
    }
    // Refused before the authorizer was asked, and nothing changed in either tenant.
    expect(web.asked).toEqual([]);
    expect([await tenantState(web, 'acme'), await tenantState(web, 'globex')]).toEqual(before);
  });

  it('a repeated or mismatched tenantId on the observation read answers 400, never the other tenant', async () => {
    const web = await startGovernanceWeb();
    const route = web.endpoints.endpoints.observations.routePattern;
    const read = (query: string, token: string) =>
      web.request(`${route}?${query}`, { headers: { authorization: `Bearer ${token}` } });
    const repeated = await read('tenantId=acme&tenantId=globex', 'tenant-acme');
    expect([repeated.status, repeated.body.code]).toEqual([400, tenantResourceCodes.invalid]);
    expect((await read('tenantId=acme', 'tenant-acme')).status).toBe(200);
    expect((await read('tenantId=globex', 'tenant-acme')).status).toBe(403);
  });

  it('an observation read without a tenant spans every tenant: asked as tenantId *, refused to tenant tokens, served to the all-tenants caller', async () => {
    const web = await startGovernanceWeb();
    const acme = await fixture(web, 'acme');
    const globex = await fixture(web, 'globex');
    const status = web.engine.resolve(invitationDeliveryStatusKey)!;
    await status.submit(
      [acme, globex].map(({ tenantId, invitationId }) => ({
        providerKey: 'demo',
        providerEventId: `evt-${tenantId}`,
        tenantId,
        invitationId,
        status: 'bounced' as const,
      })),
      { requireProviderMessageMatch: false },
    );
    const route = web.endpoints.endpoints.observations.routePattern;
    web.asked.length = 0;
    const scoped = await web.request(route, { headers: { authorization: 'Bearer tenant-acme' } });
    expect(scoped.status).toBe(403);
    const all = await web.request(route, { headers: { authorization: 'Bearer admin' } });
    expect(all.status).toBe(200);
    expect(all.body.totalMatched).toBe(2);
    expect(web.asked.map((requirement) => requirement.resource?.tenantId)).toEqual([allTenants, allTenants]);
    const own = await web.request(`${route}?tenantId=acme`, {
      headers: { authorization: 'Bearer tenant-acme' },
    });
    expect(own.status).toBe(200);
    expect(own.body.observations.map((item: { tenantId: string }) => item.tenantId)).toEqual(['acme']);
  });
});

describe('requestTenant', () => {
  it('takes the tenant from the route, the query or the body, and refuses two different ones', () => {
    expect(requestTenant({ params: { tenantId: 'acme' }, query: {}, body: undefined })).toBe('acme');
    expect(requestTenant({ params: {}, query: { tenantId: 'acme' }, body: { tenantId: 'acme' } })).toBe(
      'acme',
    );
    expect(requestTenant({ params: {}, query: {}, body: Buffer.from('{"tenantId":"acme"}') })).toBeNull();
    expect(() =>
      requestTenant({ params: { tenantId: 'globex' }, query: {}, body: { tenantId: 'acme' } }),
    ).toThrow(expect.objectContaining({ code: tenantResourceCodes.conflict, kind: 'invalid-input' }));
    expect(() =>
      requestTenant({ params: { tenantId: 'acme' }, query: { tenantId: 'globex' }, body: undefined }),
    ).toThrow(expect.objectContaining({ code: tenantResourceCodes.conflict }));
    expect(() => requestTenant({ params: {}, query: {}, body: { tenantId: null } })).toThrow(
      expect.objectContaining({ code: tenantResourceCodes.invalid }),
    );
  });
});

describe('the endpoint surfaces report the tenant check that is installed', () => {
  const scopes = (web: Web) => {
    const surfaces = web.engine.technologySurfaces();
    const admin = surfaces.find((surface) => surface.id === 'tenant-administration-http-endpoints')!;
    const status = surfaces.find(
      (surface) => surface.id === 'tenant-invitation-delivery-status-http-endpoints',
    )!;
    return {
      command: admin.metadata.authorizationTenantScope,
      dispatch: admin.metadata.deliveryDispatchAuthorizationTenantScope,
      callback: status.metadata.callbackAuthorizationTenantScope,
      observations: status.metadata.observationAuthorizationTenantScope,
    };
  };

  it('names the scope of every guarded endpoint, and none for an endpoint served without authorization or not served', async () => {
    const guarded = await startGovernanceWeb();
    expect(scopes(guarded)).toEqual({
      command: 'request-tenant',
      dispatch: 'request-tenant',
      callback: 'all-tenants',
      observations: 'request-tenant-else-all-tenants',
    });
    const changed = await startGovernanceWeb({
      web: {
        RequireTenantAdministrationAuthorization: false,
        EnableTenantInvitationDeliveryStatusObservationEndpoint: false,
      },
    });
    expect(scopes(changed)).toEqual({
      command: null,
      dispatch: 'request-tenant',
      callback: 'all-tenants',
      observations: null,
    });
  });
});
