import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EngineBuilder } from '@corekit/abstractions';
import { FileStoreProvider } from '@corekit/engine-core';
import { addMultiTenancy, type MultiTenancy } from '@corekit/tenancy';
import { addTenantGovernance, type TenantGovernance } from '@corekit/tenant-governance';

/**
 * The sample host's tenancy: two tenants resolved by the `X-Core-Tenant-Id` header or by host name
 * (`acme.localhost`, `globex.localhost`), and the governance companion with a founder membership per tenant.
 * Governance keeps its records in the File store under `<tmp>/corekit-sample-host/stores` unless the host
 * already configured `Engine:Stores`, so invitations survive a restart. The administration endpoint comes
 * with the web adapter (`@corekit/tenant-governance-web`); until then the service is reachable in process
 * (`engine.resolve(tenantGovernanceKey)`).
 */
export function addTenancyDemo(
  builder: EngineBuilder,
  options: { readonly dataDirectory?: string } = {},
): { tenancy: MultiTenancy; governance: TenantGovernance } {
  const stores = builder.configuration.getSection('Engine:Stores');
  if (stores === undefined || (typeof stores === 'object' && Object.keys(stores as object).length === 0)) {
    // Not configured by the host: keep governance records in a local data folder so they survive restarts.
    const directory = options.dataDirectory ?? path.join(os.tmpdir(), 'corekit-sample-host', 'stores');
    mkdirSync(directory, { recursive: true });
    builder.useStoreProvider(new FileStoreProvider({ directory }));
  }
  const tenancy = addMultiTenancy(builder, {
    Tenants: [
      { Id: 'acme', DisplayName: 'Acme', Domains: ['acme.localhost'] },
      { Id: 'globex', DisplayName: 'Globex', Domains: ['globex.localhost'] },
    ],
    Strategies: ['Header', 'Host'],
  });
  const governance = addTenantGovernance(builder, {
    Memberships: [
      { TenantId: 'acme', PrincipalId: 'acme-founder', Roles: ['owner'] },
      { TenantId: 'globex', PrincipalId: 'globex-founder', Roles: ['owner'] },
    ],
  });
  return { tenancy, governance };
}
