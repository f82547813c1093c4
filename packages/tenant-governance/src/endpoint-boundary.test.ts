import { addMultiTenancy } from '@corekit/tenancy';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addTenantGovernance, governanceHttpEndpointsPostureKey } from './index';

async function started(provide?: (families: string[]) => void) {
  const { builder } = createTestEngineBuilder({ configuration: {} });
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
  addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
  const families: string[] = [];
  if (provide) {
    builder.provide(governanceHttpEndpointsPostureKey, {
      ownerPackage: '@example/governance-adapter',
      mappedFamilies: () => families,
    });
    provide(families);
  }
  const engine = builder.build();
  await engine.start();
  const metadata = (id: string) => engine.technologySurfaces().find((surface) => surface.id === id)!.metadata;
  const boundary = () =>
    (metadata('tenant-governance-boundaries').boundaries as Array<Record<string, unknown>>).find(
      (entry) => entry.boundary === 'governance-http-endpoints',
    );
  return { engine, families, metadata, boundary };
}

it('reports governance-http-endpoints as taxonomy-only until an adapter maps a family, then as owned by that adapter', async () => {
  const alone = await started();
  expect(alone.boundary()).toEqual({
    boundary: 'governance-http-endpoints',
    ownership: 'taxonomy-only',
    plannedOwnership: 'companion-planned',
    basePackageOwnership: 'not-owned',
    suggestedPackage: '@corekit/tenant-governance',
  });
  expect(alone.metadata('tenant-administration').hostAdapterEndpointOwnership).toBe('not-mapped');
  await alone.engine.stop();

  const withAdapter = await started(() => {});
  // Provided but nothing served yet: still taxonomy-only (read on each surface read).
  expect(withAdapter.boundary()!.ownership).toBe('taxonomy-only');
  withAdapter.families.push('mapCommands');
  expect(withAdapter.boundary()).toEqual({
    boundary: 'governance-http-endpoints',
    ownership: 'companion-owned',
    requiresGovernanceRegistration: true,
    ownerPackage: '@example/governance-adapter',
    mappedEndpointFamilies: ['mapCommands'],
  });
  expect(withAdapter.metadata('tenant-administration').hostAdapterEndpointOwnership).toBe(
    '@example/governance-adapter',
  );
  await withAdapter.engine.stop();
});
