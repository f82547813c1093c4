import type { EngineBuilder } from '@corekit/abstractions';
import type { ModuleRouteDefinition, RoutedModuleDefinition } from '@corekit/engine-core';
import type { InventoryUpstream, UpstreamState } from './inventory-upstream';

/** An order as the sample keeps it (in memory, the newest `maxOrders` only). */
export interface Order {
  readonly orderId: string;
  readonly sku: string;
  readonly quantity: number;
  readonly placedAtUtc: string;
}

const maxOrders = 100;

/**
 * The sample's own module: it places orders (REST routes declared on the module), describes its fulfilment flow
 * in the execution-graph catalog, and contributes a data product, an authorization policy and a technology
 * surface so every /engine surface has something to show.
 */
export function addOrdersModule(builder: EngineBuilder, upstream: InventoryUpstream): void {
  const orders: Order[] = [];
  let sequence = 0;
  const routes: ModuleRouteDefinition[] = [
    {
      method: 'GET',
      path: '/api/operations/status',
      summary: 'Orders module status: runtime state, order count, upstream health answers',
      handle: ({ engine }) => ({
        body: { module: 'orders', runtime: engine.state, readiness: engine.readiness().status, orders: orders.length, upstreams: { ...upstream.state } },
      }),
    },
    { method: 'GET', path: '/api/orders', summary: 'The newest orders', handle: () => ({ body: [...orders].reverse() }) },
    {
      method: 'POST',
      path: '/api/orders',
      summary: 'Place an order: { "sku": string, "quantity": positive integer }',
      handle: ({ body }) => {
        const { sku, quantity } = (body ?? {}) as { sku?: unknown; quantity?: unknown };
        if (typeof sku !== 'string' || sku.length === 0 || !Number.isInteger(quantity) || (quantity as number) <= 0) {
          return {
            status: 400,
            headers: { 'content-type': 'application/problem+json' },
            body: {
              type: 'urn:corekit:problem:request-body-invalid',
              title: 'Bad Request',
              status: 400,
              code: 'REQUEST_BODY_INVALID',
              detail: 'Send { "sku": a non-empty string, "quantity": a positive integer }',
            },
          };
        }
        const order: Order = { orderId: `ord-${++sequence}`, sku, quantity: quantity as number, placedAtUtc: new Date().toISOString() };
        orders.push(order);
        if (orders.length > maxOrders) orders.splice(0, orders.length - maxOrders);
        return { status: 201, body: order };
      },
    },
    {
      method: 'POST',
      path: '/api/demo/upstreams/:upstream/:state',
      summary: 'Demo: flip an upstream (inventory up|down, pricing up|slow|down) and watch /health/ready after the next refresh',
      handle: ({ params }) => {
        const allowed: Record<string, readonly string[]> = { inventory: ['up', 'down'], pricing: ['up', 'slow', 'down'] };
        if (!allowed[params.upstream]?.includes(params.state)) {
          return { status: 404, body: { code: 'UNKNOWN_UPSTREAM_STATE', detail: 'Use inventory/up|down or pricing/up|slow|down' } };
        }
        (upstream.state as unknown as Record<string, string>)[params.upstream] = params.state;
        return { status: 200, body: { ...upstream.state } as UpstreamState };
      },
    },
  ];
  const module: RoutedModuleDefinition = {
    id: 'orders',
    version: '1.4.0',
    displayName: 'Orders',
    description: 'Places and ships orders; the sample module of the Core web host',
    capabilities: ['orders.place', 'orders.reserve-stock', 'orders.ship'],
    routes,
  };
  builder.addModule(module);
  builder.addCatalogEntries('execution-graphs', 'orders', [
    {
      id: 'order-fulfilment',
      displayName: 'Order fulfilment',
      description: 'From a placed order to a shipped parcel',
      sourceModuleId: 'orders',
      entryNodeId: 'place',
      nodes: [
        { id: 'place', moduleId: 'orders', capabilityKey: 'orders.place' },
        { id: 'reserve', moduleId: 'orders', capabilityKey: 'orders.reserve-stock' },
        { id: 'ship', moduleId: 'orders', capabilityKey: 'orders.ship' },
      ],
      edges: [
        { from: 'place', to: 'reserve' },
        { from: 'reserve', to: 'ship', label: 'stock reserved' },
      ],
    },
  ]);
  builder.addCatalogEntries('hosted-executions', 'orders', [
    {
      id: 'order-expiry-sweeper',
      displayName: 'Order expiry sweeper',
      description: 'Cancels orders whose stock reservation expired',
      sourceModuleId: 'orders',
      kind: 'timer',
      executionGraphId: 'order-fulfilment',
    },
  ]);
  builder.addCatalogEntries('data-products', 'orders', [
    {
      id: 'orders-daily',
      displayName: 'Orders, daily',
      sourceModuleId: 'orders',
      domainId: 'sales',
      contractId: 'orders.v1',
      mode: 'batch',
      tags: ['sales'],
    },
  ]);
  builder.addCatalogEntries('authorization-policies', 'orders', [
    { id: 'order-operators', displayName: 'Order operators', description: 'May flip the demo upstreams', modes: ['RBAC'] },
  ]);
  builder.addTechnologySurfaces(() => [
    {
      id: 'orders-rest-api',
      kind: 'rest-api',
      displayName: 'Orders REST API',
      sourcePackage: '@corekit/example-web-host',
      metadata: { routes: routes.map((route) => `${route.method} ${route.path}`), ordersInMemory: orders.length, maxOrders },
    },
  ]);
}
