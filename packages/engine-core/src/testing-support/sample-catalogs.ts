import type { EngineBuilder, HostedService } from '@corekit/abstractions';

/** A realistic, valid set of catalog entries over two modules, used by several tests. */
export function addSampleCatalogs(builder: EngineBuilder, runner?: HostedService): void {
  builder.addModule({ id: 'orders', version: '1.0.0', capabilities: ['orders.accept', 'orders.fulfil'] });
  builder.addModule({ id: 'billing', version: '2.0.0', capabilities: ['billing.charge'] });
  builder.addCatalogEntries('execution-graphs', 'orders', [
    {
      id: 'order-flow',
      displayName: 'Order flow',
      sourceModuleId: 'orders',
      entryNodeId: 'accept',
      nodes: [
        { id: 'accept', moduleId: 'orders', capabilityKey: 'orders.accept' },
        { id: 'charge', moduleId: 'billing', capabilityKey: 'billing.charge' },
        { id: 'fulfil', moduleId: 'orders', capabilityKey: 'orders.fulfil' },
      ],
      edges: [
        { from: 'accept', to: 'charge', label: 'accepted' },
        { from: 'charge', to: 'fulfil', condition: 'payment.status == "captured"' },
      ],
    },
  ]);
  builder.addCatalogEntries('hosted-executions', 'orders', [
    {
      id: 'order-pump',
      displayName: 'Order pump',
      sourceModuleId: 'orders',
      kind: 'polling',
      executionGraphId: 'order-flow',
      startsWithHost: true,
    },
    {
      id: 'nightly-report',
      displayName: 'Nightly report',
      sourceModuleId: 'billing',
      kind: 'scheduled',
      startsWithHost: false,
    },
  ]);
  if (runner) builder.addHostedService(runner);
  builder.addCatalogEntries('outboxes', 'orders', [
    {
      id: 'orders-outbox',
      displayName: 'Orders outbox',
      sourceModuleId: 'orders',
      provider: 'postgres',
      mode: 'transactional',
      channelIds: ['orders.events'],
    },
  ]);
  builder.addCatalogEntries('inboxes', 'billing', [
    {
      id: 'billing-inbox',
      displayName: 'Billing inbox',
      sourceModuleId: 'billing',
      provider: 'postgres',
      mode: 'deduplicating',
      channelIds: ['orders.events'],
    },
  ]);
  builder.addCatalogEntries('data-products', 'orders', [
    {
      id: 'orders-daily',
      displayName: 'Orders daily',
      sourceModuleId: 'orders',
      domainId: 'sales',
      contractId: 'orders.v1',
      mode: 'batch',
      tags: ['finance'],
    },
  ]);
  builder.addCatalogEntries('projections', 'orders', [
    {
      id: 'order-summary',
      displayName: 'Order summary',
      sourceModuleId: 'orders',
      targetStoreId: 'redis',
      mode: 'async',
      sourceContracts: ['orders.v1'],
    },
  ]);
  builder.addCatalogEntries('cdc-captures', 'orders', [
    {
      id: 'orders-cdc',
      displayName: 'Orders CDC',
      sourceModuleId: 'orders',
      provider: 'postgres',
      sourceId: 'orders-db',
      outboxId: 'orders-outbox',
      mode: 'logical',
      eventFormat: 'cloudevents',
      resourceIds: ['public.orders'],
    },
  ]);
  builder.addCatalogEntries('authorization-policies', 'billing', [
    {
      id: 'billing-admin',
      displayName: 'Billing admins',
      modes: ['RBAC', 'ABAC'],
      metadata: { sourceModuleId: 'spoofed' },
    },
  ]);
  builder.addCatalogEntries('cells', 'orders', [
    {
      id: 'eu-1',
      displayName: 'EU cell 1',
      sourceModuleId: 'orders',
      placement: 'eu-west',
      moduleIds: ['orders', 'billing'],
    },
    {
      id: 'us-1',
      displayName: 'US cell 1',
      sourceModuleId: 'orders',
      placement: 'us-east',
      moduleIds: ['orders'],
    },
  ]);
  builder.addCatalogEntries('cell-routes', 'orders', [
    {
      id: 'eu-tenants',
      displayName: 'EU tenants',
      sourceModuleId: 'orders',
      cellId: 'eu-1',
      match: { tenantRegion: 'eu' },
      requiredDimensions: ['provider', 'edge'],
    },
    {
      id: 'us-tenants',
      displayName: 'US tenants',
      sourceModuleId: 'orders',
      cellId: 'us-1',
      match: { tenantRegion: 'us' },
      requiredDimensions: ['provider'],
    },
  ]);
  builder.addCatalogEntries('cell-health-isolations', 'orders', [
    {
      id: 'eu-db-isolation',
      displayName: 'EU database isolation',
      sourceModuleId: 'orders',
      cellId: 'eu-1',
      dependencyIds: ['eu-db'],
    },
  ]);
  builder.addCatalogEntries('cell-traffic-automations', 'orders', [
    {
      id: 'eu-failover',
      displayName: 'EU failover',
      sourceModuleId: 'orders',
      cellId: 'eu-1',
      routeId: 'eu-tenants',
      providerId: 'dns-provider',
      edgeNodeIds: ['edge-a', 'edge-b'],
      trigger: 'dependency-unhealthy',
      action: 'shift-traffic',
      materializationMode: 'provider-and-edge-managed',
      dependencyIds: ['eu-db'],
      transportHints: { protocol: 'https' },
      priority: 10,
    },
    {
      id: 'us-drain',
      displayName: 'US drain',
      sourceModuleId: 'orders',
      cellId: 'us-1',
      routeId: 'us-tenants',
      providerId: 'dns-provider',
      trigger: 'manual',
      action: 'drain',
      materializationMode: 'provider-managed',
      priority: 1,
    },
  ]);
}
