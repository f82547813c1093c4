/** Registration key of `addTenantGovernanceDelivery` (also the owner of its jobs). */
export const tenantGovernanceDeliveryRegistrationKey = '@corekit/tenant-governance/delivery';

/** Names of the stores the delivery registration opens on the engine's store provider. */
export const deliveryStoreNames = {
  runs: 'tenant-governance-delivery-runs',
  retryQueue: 'tenant-governance-retry-queue',
  observations: 'tenant-governance-delivery-observations',
  statuses: 'tenant-governance-delivery-statuses',
  challenges: 'tenant-governance-domain-challenges',
} as const;
