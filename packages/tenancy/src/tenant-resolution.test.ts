import { isOperationError } from '@corekit/abstractions';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addMultiTenancy, type MultiTenancyOptionsInput, type TenantResolver } from './index';

const tenants = [
  { Id: 'acme', DisplayName: 'Acme', Domains: ['acme.example.test'] },
  { Id: 'globex' },
  { Id: 'initech' },
];

function tenancy(options: MultiTenancyOptionsInput, resolvers: TenantResolver[] = []) {
  const { builder, logger } = createTestEngineBuilder();
  const service = addMultiTenancy(builder, { Tenants: tenants, ...options }, { resolvers });
  return { builder, logger, service };
}

describe('tenant resolution strategies', () => {
  it('Header reads the configured header, case-insensitively', async () => {
    const { service } = tenancy({ Strategies: ['Header'], HeaderName: 'X-Tenant' });
    const resolution = await service.resolveTenant({ headers: { 'x-tenant': 'globex' } });
    expect(resolution).toEqual({
      outcome: 'resolved',
      tenant: { tenantId: 'globex', displayName: 'globex', configured: true, source: 'header' },
    });
  });

  it('Host maps DomainMap entries and per-tenant Domains, ignoring port and case', async () => {
    const { service } = tenancy({ Strategies: ['Host'], DomainMap: { 'globex.example.test': 'globex' } });
    const byMap = await service.resolveTenant({ headers: { host: 'GLOBEX.example.test:8443' } });
    const byTenant = await service.resolveTenant({ headers: { host: 'acme.example.test' } });
    expect(byMap).toMatchObject({ outcome: 'resolved', tenant: { tenantId: 'globex', source: 'host' } });
    expect(byTenant).toMatchObject({
      outcome: 'resolved',
      tenant: { tenantId: 'acme', displayName: 'Acme' },
    });
    expect(await service.resolveTenant({ headers: { host: 'other.example.test' } })).toEqual({
      outcome: 'missing',
    });
  });

  it('Host reads X-Forwarded-Host first only when UseForwardedHost is on', async () => {
    const request = { headers: { host: 'acme.example.test', 'x-forwarded-host': 'globex.example.test' } };
    const plain = tenancy({ Strategies: ['Host'], DomainMap: { 'globex.example.test': 'globex' } });
    const forwarded = tenancy({
      Strategies: ['Host'],
      DomainMap: { 'globex.example.test': 'globex' },
      UseForwardedHost: true,
    });
    expect(await plain.service.resolveTenant(request)).toMatchObject({ tenant: { tenantId: 'acme' } });
    expect(await forwarded.service.resolveTenant(request)).toMatchObject({ tenant: { tenantId: 'globex' } });
  });

  it('RouteParameter reads parsed params, else the path template', async () => {
    const { service } = tenancy({ Strategies: ['RouteParameter'], RoutePathTemplate: '/t/{tenantId}' });
    expect(await service.resolveTenant({ params: { tenantId: 'initech' } })).toMatchObject({
      tenant: { tenantId: 'initech', source: 'route-parameter' },
    });
    expect(await service.resolveTenant({ path: '/t/acme/orders?x=1' })).toMatchObject({
      tenant: { tenantId: 'acme' },
    });
    expect(await service.resolveTenant({ path: '/other/acme' })).toEqual({ outcome: 'missing' });
  });

  it('Claim reads the configured claim of the principal', async () => {
    const { service } = tenancy({ Strategies: ['Claim'], ClaimType: 'org' });
    expect(await service.resolveTenant({ claims: { org: 'globex', sub: 'someone' } })).toMatchObject({
      tenant: { tenantId: 'globex', source: 'claim' },
    });
    expect(await service.resolveTenant({ claims: { org: 42 } })).toEqual({ outcome: 'missing' });
  });

  it('Custom resolvers are asked in registration order; the first candidate wins', async () => {
    const calls: string[] = [];
    const resolvers: TenantResolver[] = [
      { id: 'none', resolve: () => (calls.push('none'), null) },
      { id: 'query', resolve: async (request) => (calls.push('query'), request.path?.split('tenant=')[1]) },
      { id: 'never', resolve: () => (calls.push('never'), 'acme') },
    ];
    const { service } = tenancy({ Strategies: ['Custom'] }, resolvers);
    const resolution = await service.resolveTenant({ path: '/x?tenant=initech' });
    expect(resolution).toMatchObject({
      tenant: { tenantId: 'initech', source: 'custom', resolverId: 'query' },
    });
    expect(calls).toEqual(['none', 'query']);
  });

  it('strategies are tried in the configured order', async () => {
    const request = { headers: { 'x-core-tenant-id': 'globex', host: 'acme.example.test' } };
    const headerFirst = tenancy({ Strategies: ['Header', 'Host'] });
    const hostFirst = tenancy({ Strategies: ['Host', 'Header'] });
    expect(await headerFirst.service.resolveTenant(request)).toMatchObject({
      tenant: { tenantId: 'globex' },
    });
    expect(await hostFirst.service.resolveTenant(request)).toMatchObject({ tenant: { tenantId: 'acme' } });
    // An unmapped host is no candidate, so the next strategy still decides.
    expect(
      await hostFirst.service.resolveTenant({
        headers: { host: 'unmapped.test', 'x-core-tenant-id': 'initech' },
      }),
    ).toMatchObject({ tenant: { tenantId: 'initech', source: 'header' } });
  });
});

describe('refusals and the default tenant', () => {
  it('the default tenant is used only when no strategy found a candidate', async () => {
    const { service } = tenancy({ Strategies: ['Header'], DefaultTenantId: 'acme' });
    expect(await service.resolveTenant({ headers: {} })).toMatchObject({
      tenant: { tenantId: 'acme', source: 'default' },
    });
    // An unknown candidate never falls back to the default tenant or to a later strategy.
    expect(await service.resolveTenant({ headers: { 'x-core-tenant-id': 'nobody' } })).toEqual({
      outcome: 'unknown',
      source: 'header',
    });
  });

  it('resolveForRoute answers 400 TENANT_REQUIRED, 400 TENANT_ID_INVALID and 404 TENANT_NOT_FOUND', async () => {
    const { service } = tenancy({ Strategies: ['Header', 'Host'], DomainMap: { 'g.test': 'globex' } });
    const refusal = async (headers: Record<string, string>) => {
      try {
        await service.resolveForRoute({ headers }, { required: true });
      } catch (error) {
        if (isOperationError(error)) return { kind: error.kind, code: error.code };
        throw error;
      }
      return 'resolved';
    };
    expect(await refusal({})).toEqual({ kind: 'invalid-input', code: 'TENANT_REQUIRED' });
    expect(await refusal({ 'x-core-tenant-id': '../etc' })).toEqual({
      kind: 'invalid-input',
      code: 'TENANT_ID_INVALID',
    });
    expect(await refusal({ 'x-core-tenant-id': 'nobody' })).toEqual({
      kind: 'not-found',
      code: 'TENANT_NOT_FOUND',
    });
    expect(await service.resolveForRoute({ headers: {} }, { required: false })).toBeNull();
    await expect(
      service.resolveForRoute({ headers: { host: 'g.test' } }, { required: true }),
    ).resolves.toMatchObject({
      tenantId: 'globex',
    });
  });

  it('AllowUnconfiguredTenants accepts any well-formed id, still refusing malformed ones', async () => {
    const { service } = tenancy({ AllowUnconfiguredTenants: true });
    expect(await service.resolveTenant({ headers: { 'x-core-tenant-id': 'brand-new' } })).toMatchObject({
      tenant: { tenantId: 'brand-new', configured: false },
    });
    expect(await service.resolveTenant({ headers: { 'x-core-tenant-id': 'a b' } })).toMatchObject({
      outcome: 'invalid',
    });
  });

  it('logs 4500 for a resolution and 4501 for a refusal, never the refused candidate', async () => {
    const { service, logger } = tenancy({});
    await service.resolveTenant({ headers: { 'x-core-tenant-id': 'acme' } });
    await service.resolveTenant({ headers: { 'x-core-tenant-id': 'candidate-from-caller-77' } });
    expect(logger.withEventId(4500)).toHaveLength(1);
    expect(logger.withEventId(4501)).toEqual([
      expect.objectContaining({ outcome: 'unknown', source: 'header' }),
    ]);
    expect(logger.text()).not.toContain('candidate-from-caller-77');
  });
});
