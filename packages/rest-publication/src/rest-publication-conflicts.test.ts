import {
  defineBehavior,
  endpoint,
  restGet,
  restProfile,
  restResource,
  routeGroup,
  type ModuleDefinition,
} from '@corekit/abstractions';
import { z } from 'zod';
import {
  buildWithRest,
  entriesOf,
  orderBehaviors,
  ordersModule,
  pingBehavior,
  thrown,
} from './test-support/rest-test-fixtures';

const partnerProfile = (path: string) => ({
  Profiles: { partner: { Routes: [{ Behavior: 'orders.lookup', Method: 'GET', Path: path }] } },
});

/** The orders module plus `orders.lookup`, whose input names the order `orderId` (orders.get calls it `id`). */
function ordersWithLookup(rest: Parameters<typeof ordersModule>[0]): ModuleDefinition {
  const lookup = defineBehavior({
    id: 'orders.lookup',
    input: z.object({ orderId: z.string() }),
    output: z.object({}),
    handler: () => ({}),
  });
  return ordersModule(rest, [...orderBehaviors(), pingBehavior(), lookup]);
}

function statusModule(id: string, path: string): ModuleDefinition {
  return {
    id,
    version: '1.0.0',
    behaviors: [
      defineBehavior({
        id: `${id}.status`,
        input: z.object({}),
        output: z.object({ ok: z.boolean() }),
        handler: () => ({ ok: true }),
      }),
    ],
    rest: [restGet(path, `${id}.status`)],
  };
}

describe('conflicting published candidates fail the build', () => {
  it('two styles claiming the same method and path (parameter names aside) name both candidates and both sources', () => {
    const error = thrown(() =>
      buildWithRest(
        [ordersWithLookup([routeGroup('/api', [restResource('orders', { get: 'orders.get' })])])],
        partnerProfile('/api/orders/:orderId'),
      ),
    );
    expect(error.code).toBe('REST_ENDPOINT_CONFLICT');
    expect(error.message).toContain(
      'candidate "orders:api:orders.get" (module "orders" routeGroup("/api").restResource("orders").get) publishes GET /api/orders/:id and candidate "profile:partner:orders.lookup" (Engine:Rest:Profiles:partner:Routes:0) publishes GET /api/orders/:orderId: the same method and path',
    );
  });

  it('two modules claiming one route name both modules; paths compare case-insensitively, as express matches them', () => {
    const error = thrown(() =>
      buildWithRest([statusModule('alpha', '/status'), statusModule('beta', '/STATUS')]),
    );
    expect(error.code).toBe('REST_ENDPOINT_CONFLICT');
    expect(error.message).toContain('module "alpha" restGet("/status", "alpha.status")');
    expect(error.message).toContain('module "beta" restGet("/STATUS", "beta.status")');
  });

  it('a conflict created by a host override names the override', () => {
    const error = thrown(() =>
      buildWithRest([statusModule('alpha', '/alpha/status'), statusModule('beta', '/beta/status')], {
        Governance: {
          Overrides: [{ Id: 'merge', Match: { Modules: ['beta'] }, Set: { Path: '/alpha/status' } }],
        },
      }),
    );
    expect(error.code).toBe('REST_ENDPOINT_CONFLICT');
    expect(error.message).toContain(
      'candidate "beta:inline:beta.status" (module "beta" restGet("/beta/status", "beta.status") after override "merge")',
    );
  });

  it('only published candidates conflict: suppressing one of the two, or a different method, builds', () => {
    const engine = buildWithRest(
      [
        ordersWithLookup([
          routeGroup('/api', { scopes: ['public-api'] }, [restResource('orders', { get: 'orders.get' })]),
        ]),
      ],
      {
        ...partnerProfile('/api/orders/:orderId'),
        Governance: { Suppressions: [{ Id: 'module-wins', Match: { RouteGroups: ['profile:partner'] } }] },
      },
    );
    expect(entriesOf(engine, 'rest-endpoints').map((entry) => entry.id)).toEqual(['orders:api:orders.get']);
    const methods = buildWithRest([
      ordersModule([
        routeGroup('/api', [restResource('orders', { list: 'orders.list', create: 'orders.create' })]),
      ]),
    ]);
    expect(entriesOf(methods, 'rest-endpoints').map((entry) => `${entry.method} ${entry.path}`)).toEqual([
      'GET /api/orders',
      'POST /api/orders',
    ]);
  });

  it('a path parameter the behavior input does not have is refused, also when an override introduces it', () => {
    const declared = thrown(() =>
      buildWithRest([
        ordersModule([routeGroup('/api', [endpoint('GET', '/orders/:orderId', 'orders.get')])]),
      ]),
    );
    expect(declared.code).toBe('REST_PUBLICATION_INVALID');
    expect(declared.message).toContain(
      'module "orders" routeGroup("/api").endpoint("GET", "/orders/:orderId", "orders.get") publishes GET /api/orders/:orderId, but the input of behavior "orders.get" has no field "orderId" (its fields: id)',
    );
    const overridden = thrown(() =>
      buildWithRest([ordersModule([restProfile('read-only', 'orders')])], {
        Governance: {
          Overrides: [
            { Id: 'rename-id', Match: { Behaviors: ['orders.get'] }, Set: { Path: '/orders/:orderId' } },
          ],
        },
      }),
    );
    expect(overridden.message).toContain(
      'publishes GET /orders/:orderId after override "rename-id", but the input of behavior "orders.get" has no field "orderId"',
    );
  });

  it('a path under a route the host serves itself (/engine, /health, /openapi, /scalar) is refused', () => {
    const error = thrown(() => buildWithRest([statusModule('alpha', '/health/alpha')]));
    expect(error.code).toBe('REST_PUBLICATION_INVALID');
    expect(error.message).toContain(
      'module "alpha" restGet("/health/alpha", "alpha.status") publishes GET /health/alpha, under /health, which the host serves itself',
    );
  });
});

describe('invalid declarations fail the build with every problem listed', () => {
  it('names unknown behaviors, foreign behaviors, bad paths, repeated endpoint names and empty shorthand profiles', () => {
    const foreign = statusModule('alpha', '/alpha');
    const error = thrown(() =>
      buildWithRest([
        foreign,
        ordersModule([
          routeGroup('/api', [
            endpoint('GET', '/a', 'orders.missing'),
            endpoint('GET', '/b', 'alpha.status'),
            endpoint('GET', '/files/*', 'orders.list'),
            endpoint('GET', '/c', 'orders.get'),
            endpoint('POST', '/d', 'orders.get'),
          ]),
          restProfile('crud', 'invoices'),
        ]),
      ]),
    );
    expect(error.code).toBe('REST_PUBLICATION_INVALID');
    expect(error.message).toContain(
      'module "orders" routeGroup("/api").endpoint("GET", "/a", "orders.missing") targets behavior "orders.missing", which no module defines; module "orders" defines "orders.list", "orders.get", "orders.create", "orders.update", "orders.remove", "ping"',
    );
    expect(error.message).toContain(
      'targets behavior "alpha.status" of module "alpha"; a module publishes only its own behaviors',
    );
    expect(error.message).toContain('path "/api/files/*" has the segment "*"');
    expect(error.message).toContain(
      'both publish endpoint name "orders.get" in route group "orders:api"; give one of them a distinct name',
    );
    expect(error.message).toContain(
      'module "orders" restProfile("crud", "invoices") generates routes for the behaviors invoices.list, invoices.get, invoices.create, invoices.update, invoices.remove, but module "orders" defines none of them',
    );
  });

  it('a behavior id used by two modules fails the build', () => {
    const copy: ModuleDefinition = { ...statusModule('beta', '/beta'), id: 'gamma', rest: [] };
    const error = thrown(() => buildWithRest([statusModule('beta', '/beta'), copy]));
    expect(error.code).toBe('REST_PUBLICATION_INVALID');
    expect(error.message).toContain(
      'module "gamma" behaviors[0] repeats the behavior id "beta.status" of module "beta"; behavior ids are unique across the engine',
    );
  });

  it('a profile mapping to an unknown behavior, or without routes, fails with the configuration key', () => {
    const unknown = thrown(() =>
      buildWithRest([ordersModule([])], {
        Profiles: { partner: { Routes: [{ Behavior: 'nope', Method: 'GET', Path: '/x' }] } },
      }),
    );
    expect(unknown.message).toContain(
      'Engine:Rest:Profiles:partner:Routes:0 targets behavior "nope", which no module defines',
    );
    const empty = thrown(() =>
      buildWithRest([ordersModule([])], { Profiles: { partner: { Prefix: '/p', Method: 'GET' } } }),
    );
    expect(empty.code).toBe('CONFIGURATION_INVALID');
    expect(empty.message).toContain('Engine:Rest:Profiles:partner:Routes');
  });
});
