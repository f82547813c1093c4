import {
  BehaviorError,
  defineBehavior,
  defineOperation,
  OperationError,
  restGet,
  restProfile,
  restResource,
  routeGroup,
  type EngineBuilder,
  type ModuleDefinition,
} from '@corekit/abstractions';
import { z } from 'zod';
import type { InventoryUpstream } from './inventory-upstream';

/** An order as the sample keeps it (in memory, the newest `maxOrders` only). */
export const orderSchema = z.object({
  orderId: z.string(),
  sku: z.string(),
  quantity: z.number().int(),
  placedAtUtc: z.string(),
});
export type Order = z.infer<typeof orderSchema>;

const maxOrders = 100;

/**
 * The sample's own module: it places orders (behaviors published over REST in each authoring style; the fourth,
 * a profile mapping, is in engine.json under Engine:Rest:Profiles), serves two module operations, describes its fulfilment flow
 * in the execution-graph catalog, and contributes a data product, an authorization policy and a technology
 * surface so every /engine surface has something to show.
 */
export function addOrdersModule(
  builder: EngineBuilder,
  upstream: InventoryUpstream,
  options: {
    /** Serve `POST /api/demo/upstreams/:upstream/:state` (anonymous: never in production). Default false. */
    readonly demoRoutes?: boolean;
  } = {},
): void {
  const orders: Order[] = [];
  let sequence = 0;
  const upstreamStates = z.object({ inventory: z.string(), pricing: z.string() });
  const demoUpstreamOperation = defineOperation({
    id: 'orders.demo-upstream',
    method: 'POST',
    path: '/api/demo/upstreams/:upstream/:state',
    summary:
      'Demo: flip an upstream (inventory up|down, pricing up|slow|down) and watch /health/ready after the next refresh',
    authorization: { mode: 'anonymous' },
    params: z.object({ upstream: z.string(), state: z.string() }),
    result: upstreamStates,
    errors: { 'not-found': 'the upstream or state is not one the demo knows' },
    handler: ({ params }) => {
      // A Map, not an object: `__proto__` or `constructor` from the path must not reach Object.prototype.
      const allowed = new Map<string, readonly string[]>([
        ['inventory', ['up', 'down']],
        ['pricing', ['up', 'slow', 'down']],
      ]);
      if (!allowed.get(params.upstream)?.includes(params.state)) {
        throw new OperationError(
          'not-found',
          'UNKNOWN_UPSTREAM_STATE',
          'Use inventory/up|down or pricing/up|slow|down',
        );
      }
      if (params.upstream === 'inventory') upstream.state.inventory = params.state === 'up' ? 'up' : 'down';
      else upstream.state.pricing = params.state === 'up' ? 'up' : params.state === 'slow' ? 'slow' : 'down';
      return { ...upstream.state };
    },
  });
  const operations = [
    defineOperation({
      id: 'orders.status',
      method: 'GET',
      path: '/api/orders/status',
      summary: 'Orders module status: runtime state, order count, upstream health answers',
      authorization: { mode: 'anonymous' },
      result: z.object({
        module: z.literal('orders'),
        runtime: z.string(),
        readiness: z.string(),
        orders: z.number().int(),
        upstreams: upstreamStates,
      }),
      handler: (_input, { engine }) => ({
        module: 'orders' as const,
        runtime: engine.state,
        readiness: engine.readiness().status,
        orders: orders.length,
        upstreams: { ...upstream.state },
      }),
    }),
    ...(options.demoRoutes ? [demoUpstreamOperation] : []),
  ];
  const behaviors = [
    defineBehavior({
      id: 'orders.list',
      description: 'The newest orders',
      input: z.object({ sku: z.string().optional() }),
      output: z.array(orderSchema),
      handler: ({ sku }) => [...orders].reverse().filter((order) => sku === undefined || order.sku === sku),
    }),
    defineBehavior({
      id: 'orders.get',
      description: 'One order',
      input: z.object({ orderId: z.string() }),
      output: orderSchema,
      handler: ({ orderId }) => {
        const order = orders.find((candidate) => candidate.orderId === orderId);
        if (!order)
          throw new BehaviorError(
            'not-found',
            'ORDER_NOT_FOUND',
            `No order "${orderId}" (the sample keeps the newest ${maxOrders})`,
            { orderId },
          );
        return order;
      },
    }),
    defineBehavior({
      id: 'orders.place',
      description: 'Place an order',
      input: z.object({ sku: z.string().min(1), quantity: z.number().int().positive() }),
      output: orderSchema,
      handler: ({ sku, quantity }) => {
        const order: Order = {
          orderId: `ord-${++sequence}`,
          sku,
          quantity,
          placedAtUtc: new Date().toISOString(),
        };
        orders.push(order);
        if (orders.length > maxOrders) orders.splice(0, orders.length - maxOrders);
        return order;
      },
    }),
    defineBehavior({
      id: 'orders.summary',
      description: 'Order count and units per SKU',
      input: z.object({}),
      output: z.object({ orders: z.number().int(), unitsBySku: z.record(z.string(), z.number().int()) }),
      handler: () => ({
        orders: orders.length,
        // Counted in a Map (a sku may be `constructor` or `__proto__`), then written as own properties.
        unitsBySku: Object.fromEntries(
          orders.reduce(
            (units, order) => units.set(order.sku, (units.get(order.sku) ?? 0) + order.quantity),
            new Map<string, number>(),
          ),
        ),
      }),
    }),
  ];
  const module: ModuleDefinition = {
    id: 'orders',
    version: '1.4.0',
    displayName: 'Orders',
    description: 'Places and ships orders; the sample module of the Core web host',
    capabilities: ['orders.place', 'orders.reserve-stock', 'orders.ship'],
    operations,
    behaviors,
    rest: [
      // Explicit module DSL: a route group opted into host governance (scope public-api), a CRUD resource in it.
      routeGroup('/api', { scopes: ['public-api'], tags: ['Orders'], documents: ['public'] }, [
        restResource(
          'orders',
          { list: 'orders.list', get: 'orders.get', create: 'orders.place' },
          { idParameter: 'orderId' },
        ),
      ]),
      // Generated profile shorthand: the read-only profile of `orders` as API major version 2.
      restProfile('read-only', 'orders', { prefix: '/v2/orders', version: 2, idParameter: 'orderId' }),
      // Inline helper: one route in one line.
      restGet('/api/orders-summary', 'orders.summary'),
    ],
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
      description: 'Forgets in-memory orders older than a day',
      sourceModuleId: 'orders',
      kind: 'timer',
      executionGraphId: 'order-fulfilment',
      startsWithHost: true,
    },
  ]);
  // The sweeper's runner: a hosted service under the hosted execution's id, started and stopped by the engine.
  let sweeper: NodeJS.Timeout | undefined;
  builder.addHostedService({
    id: 'order-expiry-sweeper',
    start: () => {
      sweeper = setInterval(() => {
        const cutoff = Date.now() - 24 * 60 * 60_000;
        for (let index = orders.length - 1; index >= 0; index--)
          if (Date.parse(orders[index].placedAtUtc) < cutoff) orders.splice(index, 1);
      }, 60_000);
      sweeper.unref();
    },
    stop: () => clearInterval(sweeper),
  });
  builder.addCatalogEntries('outboxes', 'orders', [
    {
      id: 'orders-outbox',
      displayName: 'Orders outbox',
      description: 'Order events staged in the same transaction as the order',
      sourceModuleId: 'orders',
      provider: 'postgres',
      mode: 'transactional',
      channelIds: ['orders.placed', 'orders.shipped'],
    },
  ]);
  builder.addCatalogEntries('cells', 'orders', [
    {
      id: 'eu-west-1',
      displayName: 'EU west cell 1',
      sourceModuleId: 'orders',
      placement: 'eu-west',
      moduleIds: ['orders'],
    },
    {
      id: 'us-east-1',
      displayName: 'US east cell 1',
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
      cellId: 'eu-west-1',
      match: { tenantRegion: 'eu' },
      requiredDimensions: ['provider', 'edge'],
    },
    {
      id: 'us-tenants',
      displayName: 'US tenants',
      sourceModuleId: 'orders',
      cellId: 'us-east-1',
      match: { tenantRegion: 'us' },
      requiredDimensions: ['provider'],
    },
  ]);
  builder.addCatalogEntries('cell-health-isolations', 'orders', [
    {
      id: 'eu-inventory-isolation',
      displayName: 'EU inventory isolation',
      sourceModuleId: 'orders',
      cellId: 'eu-west-1',
      dependencyIds: ['inventory-api'],
    },
  ]);
  builder.addCatalogEntries('cell-traffic-automations', 'orders', [
    {
      id: 'eu-failover',
      displayName: 'EU failover to US',
      sourceModuleId: 'orders',
      cellId: 'eu-west-1',
      routeId: 'eu-tenants',
      providerId: 'dns',
      edgeNodeIds: ['edge-fra', 'edge-ams'],
      trigger: 'dependency-unhealthy',
      action: 'shift-traffic',
      materializationMode: 'provider-and-edge-managed',
      dependencyIds: ['inventory-api'],
      priority: 10,
    },
    {
      id: 'us-drain',
      displayName: 'US drain',
      sourceModuleId: 'orders',
      cellId: 'us-east-1',
      routeId: 'us-tenants',
      providerId: 'dns',
      trigger: 'manual',
      action: 'drain',
      materializationMode: 'provider-managed',
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
    {
      id: 'order-operators',
      displayName: 'Order operators',
      description: 'May flip the demo upstreams',
      modes: ['RBAC'],
    },
  ]);
  builder.addTechnologySurfaces(() => [
    {
      id: 'orders-rest-api',
      kind: 'rest-api',
      displayName: 'Orders REST API',
      sourcePackage: '@corekit/example-web-host',
      metadata: {
        routes: operations.map((operation) => `${operation.method} ${operation.path}`),
        behaviors: behaviors.map((behavior) => behavior.id),
        ordersInMemory: orders.length,
        maxOrders,
      },
    },
  ]);
}
