/** Registration key of `addTenantGovernance` (a second call is refused; the owner of its jobs). */
export const tenantGovernanceRegistrationKey = '@corekit/tenant-governance';

/** Names of the stores this package opens (`<name>.json` under `Engine:Stores:Directory` with the File provider). */
export const governanceStoreNames = {
  memberships: 'tenant-governance-memberships',
  invitations: 'tenant-governance-invitations',
  domains: 'tenant-governance-domains',
  actions: 'tenant-governance-actions',
  audit: 'tenant-governance-audit',
} as const;
