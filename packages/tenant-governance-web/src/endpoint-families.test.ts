import type { EngineBuilder } from '@corekit/abstractions';
import { addMultiTenancy } from '@corekit/tenancy';
import { addTenantGovernance, addTenantGovernanceDelivery } from '@corekit/tenant-governance';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { createWebHost, type WebHost } from '@corekit/web-host';
import {
  mapTenantAdministrationCommandEndpoint,
  mapTenantDomainHttpProofEndpoint,
  mapTenantGovernanceEndpoints,
  mapTenantInvitationDeliveryDispatchEndpoint,
  mapTenantInvitationDeliveryStatusCallbackEndpoint,
  mapTenantInvitationDeliveryStatusObservationEndpoint,
} from './index';
import { tokenAuthorizer } from './test-support/governance-web-host';

const hosts: WebHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** Governance and delivery registered; `map` makes whichever map calls the test names. */
async function start(map: (builder: EngineBuilder) => void) {
  const { builder } = createTestEngineBuilder({ configuration: {} });
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
  const governance = addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
  const delivery = addTenantGovernanceDelivery(builder, {});
  map(builder);
  const host = createWebHost(builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    authorize: tokenAuthorizer(),
  });
  hosts.push(host);
  const { url } = await host.listen();
  const base = url.replace('localhost', '127.0.0.1');
  const status = async (path: string, method = 'GET') =>
    (
      await fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      })
    ).status;
  const liveProofPath = async () => {
    await governance.declareDomain({ tenantId: 'acme', domainName: 'families.example' });
    const { plan } = await delivery.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'families.example',
      method: 'http-file',
    });
    return plan.httpFile!.path;
  };
  const surface = (id: string) =>
    host.engine.technologySurfaces().find((entry) => entry.id === id)!.metadata as Record<string, unknown>;
  const boundary = () =>
    (surface('tenant-governance-boundaries').boundaries as Array<Record<string, unknown>>).find(
      (entry) => entry.boundary === 'governance-http-endpoints',
    );
  return { status, liveProofPath, surface, boundary };
}

const routes = {
  command: ['/engine/tenant-administration/commands', 'POST'],
  dispatch: ['/engine/tenant-invitations/delivery-dispatches', 'POST'],
  callback: ['/engine/tenant-invitations/delivery-status', 'POST'],
  observations: ['/engine/tenant-invitations/delivery-status/observations', 'GET'],
} as const;

describe('endpoint families', () => {
  it('maps each family only by its own call: the others answer 404 and report disabled, call not made', async () => {
    const host = await start((builder) => mapTenantInvitationDeliveryStatusCallbackEndpoint(builder));
    // Served (fail closed: 401 without a token) only where the call was made.
    expect(await host.status(...routes.callback)).toBe(401);
    expect(await host.status(...routes.command)).toBe(404);
    expect(await host.status(...routes.dispatch)).toBe(404);
    expect(await host.status(...routes.observations)).toBe(404);
    expect(await host.status(await host.liveProofPath())).toBe(404);
    const admin = host.surface('tenant-administration-http-endpoints');
    expect(admin).toMatchObject({
      endpointState: 'disabled',
      mapCall: 'mapTenantAdministrationCommandEndpoint',
      mapCallMade: false,
      deliveryDispatchEndpointState: 'disabled',
      deliveryDispatchMapCallMade: false,
      httpProofFileEndpointState: 'disabled',
      httpProofFileMapCall: 'mapTenantDomainHttpProofEndpoint',
      httpProofFileMapCallMade: false,
    });
    expect(host.surface('tenant-invitation-delivery-status-http-endpoints')).toMatchObject({
      callbackEndpointState: 'mapped',
      callbackMapCallMade: true,
      observationEndpointState: 'disabled',
      observationMapCallMade: false,
    });
  });

  it('maps the anonymous proof-file route only through mapTenantDomainHttpProofEndpoint, never through mapTenantGovernanceEndpoints', async () => {
    const guardedOnly = await start((builder) => mapTenantGovernanceEndpoints(builder));
    for (const [route, method] of Object.values(routes))
      expect(await guardedOnly.status(route, method)).toBe(401);
    expect(await guardedOnly.status(await guardedOnly.liveProofPath())).toBe(404);
    expect(guardedOnly.surface('tenant-administration-http-endpoints')).toMatchObject({
      httpProofFileEndpointState: 'disabled',
      httpProofFileMapCallMade: false,
    });

    const proofOnly = await start((builder) => mapTenantDomainHttpProofEndpoint(builder));
    expect(await proofOnly.status(await proofOnly.liveProofPath())).toBe(200);
    for (const [route, method] of Object.values(routes))
      expect(await proofOnly.status(route, method)).toBe(404);
  });

  it('refuses a key of another family, naming the call it belongs to, and a second call of one family', () => {
    const { builder } = createTestEngineBuilder({ configuration: {} });
    addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
    addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
    addTenantGovernanceDelivery(builder, {});
    expect(() =>
      mapTenantAdministrationCommandEndpoint(builder, {
        TenantInvitationDeliveryStatusCallbackSigningSecret: 'x'.repeat(32),
      } as never),
    ).toThrow(
      /AspNetCore:TenantInvitationDeliveryStatusCallbackSigningSecret configures mapTenantInvitationDeliveryStatusCallbackEndpoint/,
    );
    expect(() =>
      mapTenantGovernanceEndpoints(builder, { EnableTenantDomainHttpProofEndpoint: true } as never),
    ).toThrow(/EnableTenantDomainHttpProofEndpoint configures mapTenantDomainHttpProofEndpoint/);
    mapTenantInvitationDeliveryDispatchEndpoint(builder);
    expect(() => mapTenantInvitationDeliveryDispatchEndpoint(builder)).toThrow(/already called/);
    expect(() => mapTenantGovernanceEndpoints(builder)).toThrow(
      /mapTenantInvitationDeliveryDispatchEndpoint \(@corekit\/tenant-governance-web\) was already called/,
    );
  });

  it('binds each call with its own options and the shared section from configuration', async () => {
    const host = await start((builder) => {
      mapTenantInvitationDeliveryStatusObservationEndpoint(builder, {
        TenantInvitationDeliveryStatusObservationMaxLimit: 30,
        TenantInvitationDeliveryStatusObservationDefaultLimit: 10,
      });
      mapTenantAdministrationCommandEndpoint(builder, { EnableTenantAdministrationCommandEndpoint: false });
    });
    expect(host.surface('tenant-invitation-delivery-status-http-endpoints')).toMatchObject({
      observationMaxLimit: 30,
      observationDefaultLimit: 10,
      observationEndpointState: 'mapped',
    });
    expect(host.surface('tenant-administration-http-endpoints')).toMatchObject({
      endpointState: 'disabled',
      mapCallMade: true,
    });
  });
});

describe('governance-http-endpoints boundary ownership', () => {
  it('stays taxonomy-only until a family is mapped, then is owned by the web adapter with the mapped calls listed', async () => {
    const none = await start(() => {});
    expect(none.boundary()).toMatchObject({
      ownership: 'taxonomy-only',
      plannedOwnership: 'companion-planned',
      basePackageOwnership: 'not-owned',
    });
    expect(none.surface('tenant-administration')).toMatchObject({
      hostAdapterEndpointOwnership: 'not-mapped',
    });

    const disabled = await start((builder) =>
      mapTenantAdministrationCommandEndpoint(builder, { EnableTenantAdministrationCommandEndpoint: false }),
    );
    expect(disabled.boundary()).toMatchObject({ ownership: 'taxonomy-only' });

    const mapped = await start((builder) => {
      mapTenantInvitationDeliveryStatusCallbackEndpoint(builder);
      mapTenantDomainHttpProofEndpoint(builder);
    });
    expect(mapped.boundary()).toEqual({
      boundary: 'governance-http-endpoints',
      ownership: 'companion-owned',
      requiresGovernanceRegistration: true,
      ownerPackage: '@corekit/tenant-governance-web',
      mappedEndpointFamilies: [
        'mapTenantInvitationDeliveryStatusCallbackEndpoint',
        'mapTenantDomainHttpProofEndpoint',
      ],
    });
    expect(mapped.surface('tenant-administration')).toMatchObject({
      hostAdapterEndpointOwnership: '@corekit/tenant-governance-web',
    });
  });
});
