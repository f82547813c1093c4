import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CoreError } from '@corekit/abstractions';
import express from 'express';
import type { HostRoute } from './host-route';
import { HostRouteTable, type RouteGuards } from './host-route-table';

const route = (method: HostRoute['method'], path: string, extra: Partial<HostRoute> = {}): HostRoute => ({
  method,
  path,
  summary: path,
  responses: {},
  handler: (_request, response) => response.json({ served: `${method} ${path}` }),
  ...extra,
});

const open: RouteGuards = { isGuarded: () => false, routeGuards: () => [] };

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(table: HostRouteTable): Promise<string> {
  const app = express();
  app.use(express.json());
  app.use(table.middleware);
  app.use((_request: express.Request, response: express.Response) => {
    response.status(404).json({ served: null });
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function served(url: string): Promise<unknown> {
  return ((await (await fetch(url)).json()) as { served: unknown }).served;
}

describe('HostRouteTable', () => {
  it('serves pushed routes only from the next rebuild, added routes at once', async () => {
    const table = new HostRouteTable(open);
    const url = await serve(table);
    table.push(route('get', '/a'));
    expect(await served(`${url}/a`)).toBeNull();
    table.rebuild();
    expect(await served(`${url}/a`)).toBe('get /a');
    table.add(route('get', '/b'));
    expect(await served(`${url}/b`)).toBe('get /b');
  });

  it('routes a literal segment before a parameter, whatever the registration order', async () => {
    const table = new HostRouteTable(open);
    table.push(route('get', '/items/:id'), route('get', '/items/latest'));
    table.rebuild();
    const url = await serve(table);
    expect(await served(`${url}/items/latest`)).toBe('get /items/latest');
    expect(table.routes().map((entry) => entry.path)).toEqual(['/items/latest', '/items/:id']);
  });

  it('refuses a second route on one method and path with HOST_ROUTE_INVALID', () => {
    const table = new HostRouteTable(open);
    table.add(route('post', '/orders'));
    expect(() => table.add(route('post', '/orders'))).toThrow(
      expect.objectContaining({ code: 'HOST_ROUTE_INVALID', message: 'POST /orders is already registered' }),
    );
    expect(() => table.add(route('post', '/orders'))).toThrow(CoreError);
    table.add(route('get', '/orders'));
    expect(table.size).toBe(2);
  });

  it('runs the guards, then the pre-handlers, then the body validation before the handler', async () => {
    const order: string[] = [];
    const guards: RouteGuards = {
      isGuarded: () => true,
      routeGuards: () => [(_request, _response, next) => (order.push('guard'), next())],
    };
    const table = new HostRouteTable(guards);
    const { z } = await import('zod');
    table.add(
      route('post', '/things', {
        preHandlers: [(_request, _response, next) => (order.push('pre'), next())],
        requestBody: z.object({ name: z.string() }),
        handler: (request, response) => (order.push('handler'), response.json({ body: request.body })),
      }),
    );
    const url = await serve(table);
    const answer = await fetch(`${url}/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', extra: 1 }),
    });
    expect(await answer.json()).toEqual({ body: { name: 'x' } });
    expect(order).toEqual(['guard', 'pre', 'handler']);
  });

  it('answers what the host asks of it: drain, body ownership, allowed methods, clashes, templates', () => {
    const table = new HostRouteTable(open);
    table.push(
      route('get', '/health/live', { servedWhileDraining: true, answer: () => ({ status: 200, body: {} }) }),
      route('post', '/hooks/:provider', { ownsBodyParsing: true }),
      route('get', '/hooks/:provider'),
    );
    table.rebuild();
    expect(table.servedWhileDraining('/health/live')).toBe(true);
    expect(table.servedWhileDraining('/hooks/x')).toBe(false);
    expect(table.ownsBody({ method: 'POST', path: '/hooks/x' })).toBe(true);
    expect(table.ownsBody({ method: 'GET', path: '/hooks/x' })).toBe(false);
    expect(table.methodsAt('/hooks/x')).toEqual(['POST', 'GET']);
    expect(table.clashWith('post', '/hooks/:name')?.path).toBe('/hooks/:provider');
    expect(table.clashWith('put', '/hooks/:name')).toBeUndefined();
    expect(table.isFastAnswer('/health/live')).toBe(true);
    expect(table.routeTemplate('HEAD', '/hooks/sendgrid')).toBe('/hooks/:provider');
    expect(table.routeTemplate('GET', '/health/live')).toBe('/health/live');
  });

  it('leaves guarded routes out of the fast answers and tells its listeners of every rebuild', () => {
    let rebuilds = 0;
    const table = new HostRouteTable({ isGuarded: () => true, routeGuards: () => [] });
    table.onRebuild(() => rebuilds++);
    table.add(route('get', '/health', { answer: () => ({ status: 200, body: {} }) }));
    table.rebuild();
    expect(table.isFastAnswer('/health')).toBe(false);
    expect(rebuilds).toBe(2);
  });
});
