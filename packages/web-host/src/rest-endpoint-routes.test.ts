import { problemDetailsSchema, type RestEndpointDescriptor } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger, manualClock } from '@corekit/engine-core';
import { createWebHost } from './index';
import { restOrdersModule, restProfiles, restStatusModule } from './test-support/rest-orders-module';
import { closeTestHosts, startTestHost, type TestHost } from './test-support/test-host';

afterEach(closeTestHosts);

type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: any;
  responses: Record<string, any>;
  tags?: string[];
};
type Document = {
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, any> };
};

const hostPrefixes = ['/engine', '/health', '/openapi', '/scalar'];

function startOrdersHost(rest: Record<string, unknown> = restProfiles): Promise<TestHost> {
  return startTestHost({
    configuration: { Engine: { Rest: rest } },
    setup: (builder) => {
      builder.addModule(restOrdersModule());
      builder.addModule(restStatusModule());
    },
  });
}

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** `METHOD /openapi/{path}` of every operation of a document that is not one of the host's own routes. */
function moduleOperations(document: Document): string[] {
  return Object.entries(document.paths)
    .filter(([path]) => !hostPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)))
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

function publishedOperations(
  endpoints: readonly RestEndpointDescriptor[],
  keep: (endpoint: RestEndpointDescriptor) => boolean,
): string[] {
  return endpoints
    .filter(keep)
    .map((endpoint) => `${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, '{$1}')}`)
    .sort();
}

describe('published REST endpoints answer real HTTP requests', () => {
  it('explicit module DSL: the CRUD resource lists, reads, creates (201), replaces and deletes (204)', async () => {
    const test = await startOrdersHost();
    expect(await test.request('/api/orders')).toMatchObject({
      status: 200,
      body: [{ id: 'o-1', item: 'apple', quantity: 2 }],
    });
    expect(await test.request('/api/orders/o-1')).toMatchObject({
      status: 200,
      body: { id: 'o-1', item: 'apple', quantity: 2 },
    });
    const created = await test.request('/api/orders', json('POST', { item: 'pear', quantity: 3 }));
    expect(created).toMatchObject({ status: 201, body: { id: 'o-2', item: 'pear', quantity: 3 } });
    expect(await test.request('/api/orders?item=pear')).toMatchObject({ status: 200, body: [{ id: 'o-2' }] });
    expect(await test.request('/api/orders/o-2', json('PUT', { item: 'plum', quantity: 1 }))).toMatchObject({
      status: 200,
      body: { id: 'o-2', item: 'plum' },
    });
    const removed = await test.request('/api/orders/o-2', { method: 'DELETE' });
    expect([removed.status, removed.text]).toEqual([204, '']);
    expect((await test.request('/api/orders/o-2')).status).toBe(404);
  });

  it('inline helper, generated shorthand (API v2) and profile mapping (API v3) each answer on their own path', async () => {
    const test = await startOrdersHost();
    expect(await test.request('/api/ping', json('POST', { echo: 'hello' }))).toMatchObject({
      status: 200,
      body: { answer: 'hello' },
    });
    expect(await test.request('/api/ping', { method: 'POST' })).toMatchObject({
      status: 200,
      body: { answer: 'pong' },
    });
    expect(await test.request('/v2/orders/o-1')).toMatchObject({ status: 200, body: { id: 'o-1' } });
    expect((await test.request('/v2/orders', json('POST', { item: 'x', quantity: 1 }))).status).toBe(405);
    expect(await test.request('/partner/orders/o-1')).toMatchObject({ status: 200, body: { id: 'o-1' } });
    expect(await test.request('/status')).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('answers with the output schema: fields the handler returns beyond it are never sent', async () => {
    const test = await startOrdersHost();
    const { text } = await test.request('/api/orders/o-1');
    expect(text).not.toContain('internalNote');
    expect(text).not.toContain('never shown');
  });

  it('invalid input answers 400 problem details with the zod issues, and the handler does not run', async () => {
    const test = await startOrdersHost();
    const { status, headers, body } = await test.request(
      '/api/orders',
      json('POST', { item: '', quantity: 'many' }),
    );
    expect(status).toBe(400);
    expect(headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(problemDetailsSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ code: 'BEHAVIOR_INPUT_INVALID', status: 400, instance: '/api/orders' });
    expect(body.errors.map((error: { path: string }) => error.path).sort()).toEqual(['item', 'quantity']);
    expect((await test.request('/api/orders')).body).toHaveLength(1);
  });

  it('merges query, body and path parameters into the input, the path parameter winning', async () => {
    const test = await startOrdersHost();
    const replaced = await test.request(
      '/api/orders/o-1?quantity=ignored',
      json('PUT', { id: 'o-9', item: 'kiwi', quantity: 5 }),
    );
    expect(replaced).toMatchObject({ status: 200, body: { id: 'o-1', item: 'kiwi', quantity: 5 } });
    expect((await test.request('/api/orders/o-9')).status).toBe(404);
    const array = await test.request('/api/orders/o-1', json('PUT', [1, 2]));
    expect(array).toMatchObject({
      status: 400,
      body: { code: 'BEHAVIOR_INPUT_INVALID', errors: [{ path: '(body)' }] },
    });
  });

  it('maps behavior errors to their status with the behavior code and message', async () => {
    const test = await startOrdersHost();
    expect(await test.request('/api/orders/nope')).toMatchObject({
      status: 404,
      body: {
        code: 'ORDER_NOT_FOUND',
        detail: 'No order "nope"; GET /api/orders lists them',
        orderId: 'nope',
      },
    });
  });

  it('mounts exactly the published routes: a suppressed candidate is not served, an overridden one only at its new path', async () => {
    const test = await startOrdersHost({
      ...restProfiles,
      Governance: {
        Suppressions: [{ Id: 'no-status', Match: { Modules: ['status'] } }],
        Overrides: [{ Id: 'move-ping', Match: { Behaviors: ['ping'] }, Set: { Path: '/api/echo' } }],
      },
    });
    expect((await test.request('/status')).body.code).toBe('ROUTE_NOT_FOUND');
    expect((await test.request('/api/ping', { method: 'POST' })).body.code).toBe('ROUTE_NOT_FOUND');
    expect(await test.request('/api/echo', { method: 'POST' })).toMatchObject({
      status: 200,
      body: { answer: 'pong' },
    });
    const catalog = (await test.request('/engine/rest-endpoints')).body as RestEndpointDescriptor[];
    expect(catalog.map((endpoint) => endpoint.id)).not.toContain('status:inline:status.read');
    expect((await test.request('/engine/rest-endpoints/orders:inline:ping')).body).toMatchObject({
      path: '/api/echo',
      appliedOverrideId: 'move-ping',
    });
  });
});

describe('OpenAPI documents of the published endpoints', () => {
  it('/openapi/v1.json documents exactly the published endpoints of API major version 1, with names, inputs and answers', async () => {
    const test = await startOrdersHost();
    const endpoints = (await test.request('/engine/rest-endpoints')).body as RestEndpointDescriptor[];
    const document = (await test.request('/openapi/v1.json')).body as Document;
    expect(moduleOperations(document)).toEqual(
      publishedOperations(endpoints, (endpoint) => endpoint.apiMajorVersion === 1),
    );
    expect(moduleOperations(document)).toEqual([
      'DELETE /api/orders/{id}',
      'GET /api/orders',
      'GET /api/orders/{id}',
      'GET /status',
      'POST /api/orders',
      'POST /api/ping',
      'PUT /api/orders/{id}',
    ]);
    const list = document.paths['/api/orders'].get;
    expect(list).toMatchObject({
      operationId: 'orders.list',
      tags: ['Orders'],
      summary: 'List orders, optionally of one item',
    });
    expect(list.parameters).toEqual([
      expect.objectContaining({ name: 'item', in: 'query', required: false }),
    ]);
    const create = document.paths['/api/orders'].post;
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['item', 'quantity'],
    });
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400']));
    const update = document.paths['/api/orders/{id}'].put;
    expect(update.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(Object.keys(update.requestBody.content['application/json'].schema.properties)).toEqual([
      'item',
      'quantity',
    ]);
    expect(document.paths['/status'].get.tags).toEqual(['status']);
    expect(document.paths['/engine/rest-endpoints'].get).toBeDefined();
  });

  it('/openapi/v{major}.json and /openapi/{documentName}/v{major}.json select by API major version and document name', async () => {
    const test = await startOrdersHost();
    const endpoints = (await test.request('/engine/rest-endpoints')).body as RestEndpointDescriptor[];
    const v2 = (await test.request('/openapi/v2.json')).body as Document;
    expect(moduleOperations(v2)).toEqual(['GET /v2/orders', 'GET /v2/orders/{id}']);
    expect(v2.paths['/health/ready']).toBeDefined();
    const v3 = (await test.request('/openapi/v3.json')).body as Document;
    expect(moduleOperations(v3)).toEqual(
      publishedOperations(endpoints, (endpoint) => endpoint.apiMajorVersion === 3),
    );
    const publicDocument = (await test.request('/openapi/public/v1.json')).body as Document;
    expect(Object.keys(publicDocument.paths).sort()).toEqual(['/api/orders', '/api/orders/{id}']);
    expect(publicDocument.info.title).toBe('Core host: public (API v1)');
    const partner = (await test.request('/openapi/partner/v3.json')).body as Document;
    expect(Object.keys(partner.paths)).toEqual(['/partner/orders/{id}']);
    const defaults = (await test.request('/openapi/default/v1.json')).body as Document;
    expect(Object.keys(defaults.paths).sort()).toEqual(['/api/ping', '/status']);
    expect((await test.request('/openapi/public/v2.json')).status).toBe(404);
    expect((await test.request('/openapi/v4.json')).status).toBe(404);
    const index = (await test.request('/engine')).body as { links: Array<{ rel: string; href: string }> };
    expect(index.links).toEqual(
      expect.arrayContaining([
        {
          rel: 'openapi:partner:v3',
          href: '/openapi/partner/v3.json',
          method: 'GET',
          templated: false,
          description: expect.any(String),
        },
      ]),
    );
  });
});

describe('build failures reach the host', () => {
  it('two published candidates on one method and path fail createWebHost with both sources named', () => {
    const builder = createEngineBuilder({
      contentRoot: __dirname,
      environment: {},
      clock: manualClock(),
      logger: createMemoryLogger(),
      configuration: {
        Engine: {
          Rest: { Profiles: { clash: { Routes: [{ Behavior: 'ping', Method: 'GET', Path: '/status' }] } } },
        },
      },
    });
    builder.addModule(restOrdersModule());
    builder.addModule(restStatusModule());
    expect(() => createWebHost(builder, { port: 0, handleSignals: false, environment: {} })).toThrow(
      /candidate "status:inline:status.read" \(module "status" restGet\("\/status", "status.read"\)\) publishes GET \/status and candidate "profile:clash:ping" \(Engine:Rest:Profiles:clash:Routes:0\) publishes GET \/status/,
    );
  });
});

describe('published endpoints take JSON bodies only', () => {
  it('refuses a body method with a non-JSON content type (a cross-site form or text/plain) with 415 before the behavior runs', async () => {
    const test = await startOrdersHost();
    for (const [contentType, body] of [
      ['text/plain', '{"item":"csrf","quantity":1}'],
      ['application/x-www-form-urlencoded', 'item=csrf&quantity=1'],
      ['multipart/form-data; boundary=x', '--x--'],
    ]) {
      const refused = await test.request('/api/ping?echo=csrf', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
      expect([refused.status, refused.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    expect((await test.request('/api/orders')).body).toEqual(
      (await test.request('/api/orders')).body.filter((order: { item: string }) => order.item !== 'csrf'),
    );
    expect(await test.request('/api/ping?echo=fine', { method: 'POST' })).toMatchObject({
      status: 200,
      body: { answer: 'fine' },
    });
  });
});
