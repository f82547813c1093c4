/** Diagnostic event ids of the multi-tenancy core (spec range 4500-4502). */
export const tenancyEventIds = {
  /** debug: a request's tenant was resolved (strategy and tenant id). */
  tenantResolved: 4500,
  /** info: a request's tenant was missing, malformed or unknown (outcome and strategy, never the candidate). */
  tenantUnresolved: 4501,
  /** info at registration (tenant count, strategies); warn for a configuration that cannot resolve anything. */
  tenancyConfigured: 4502,
} as const;

export const tenancyEventIdNames: Readonly<Record<number, string>> = {
  4500: 'tenant-resolved',
  4501: 'tenant-unresolved',
  4502: 'tenancy-configured',
};
