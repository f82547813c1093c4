import { defineOperation, type LogRecord, type OperationDefinition } from '@corekit/abstractions';
import { z } from 'zod';
import type { HostRoute } from './host-route';
import { OperationMounting, type OperationRouteTarget } from './operation-mounting';
import type { OperationRouteContext } from './operation-routes';

const operation = (id: string, path: string) =>
  defineOperation({
    id,
    method: 'POST',
    path,
    summary: id,
    result: z.object({}),
    handler: async () => ({}),
  }) as OperationDefinition;

function target(existing: HostRoute[] = []) {
  const routes = [...existing];
  let rebuilds = 0;
  const value: OperationRouteTarget = {
    clashWith: (method, path) =>
      routes.find(
        (route) =>
          route.method === method && route.path.replace(/:[^/]+/g, ':') === path.replace(/:[^/]+/g, ':'),
      ),
    push: (...added) => void routes.push(...added),
    rebuild: () => void rebuilds++,
  };
  return { value, routes, rebuilds: () => rebuilds };
}

const context = {
  maxBodyBytes: 1024,
  lingerMs: 0,
  isGuarded: () => false,
  guard: async () => null,
} as unknown as OperationRouteContext;

describe('OperationMounting', () => {
  it('mounts each operation once, rebuilding only when one was added', () => {
    const list = [operation('orders.create', '/api/orders')];
    const routes = target();
    const mounting = new OperationMounting({ list: () => list }, routes.value, context, {
      log: () => undefined,
    });
    mounting.sync();
    mounting.sync();
    expect(routes.routes.map((route) => `${route.method} ${route.path}`)).toEqual(['post /api/orders']);
    expect(routes.rebuilds()).toBe(1);
    list.push(operation('orders.cancel', '/api/orders/:orderId/cancel'));
    mounting.sync();
    expect(routes.routes.map((route) => route.path)).toEqual(['/api/orders', '/api/orders/:orderId/cancel']);
    expect(routes.rebuilds()).toBe(2);
  });

  it('leaves an operation on a method and path the host serves unmounted, logged as an error', () => {
    const records: LogRecord[] = [];
    const existing: HostRoute = {
      method: 'post',
      path: '/api/orders/:id',
      summary: 'the host route',
      responses: {},
      handler: () => undefined,
    };
    const routes = target([existing]);
    const mounting = new OperationMounting(
      { list: () => [operation('orders.update', '/api/orders/:orderId')] },
      routes.value,
      context,
      { log: (record) => void records.push(record) },
    );
    mounting.sync();
    expect(routes.routes).toEqual([existing]);
    expect(routes.rebuilds()).toBe(0);
    expect(records).toEqual([
      expect.objectContaining({
        level: 'error',
        message: expect.stringContaining(
          'Operation orders.update (no owner) declares POST /api/orders/:orderId',
        ),
      }),
    ]);
  });
});
