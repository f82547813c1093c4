import { closeTestHosts, startTestHost, type TestHost } from './test-support/test-host';
import { addWidgetCatalogs } from './test-support/widget-catalogs';

afterEach(closeTestHosts);

type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  responses: Record<string, any>;
  tags?: string[];
  description?: string;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, any> };
};

async function hostWithEverything(): Promise<TestHost> {
  return startTestHost({
    configuration: { Engine: { Transports: ['RestApi', 'ServerSentEvents', 'WebSocket'] } },
    setup: addWidgetCatalogs,
  });
}

function operations(document: Document): Array<{ path: string; method: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
}

function collectRefs(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => collectRefs(item, into));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') into.push(child);
      else collectRefs(child, into);
    }
  }
  return into;
}

describe('/openapi/v1.json', () => {
  it('is an OpenAPI 3.1 document whose every $ref resolves and whose operation ids are unique', async () => {
    const test = await hostWithEverything();
    const { status, body } = await test.request('/openapi/v1.json');
    expect(status).toBe(200);
    const document = body as Document;
    expect(document.openapi).toBe('3.1.0');
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas[ref.slice('#/components/schemas/'.length)]).toBeDefined();
    }
    const ids = operations(document).map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents every route the host serves: the route table and every route added straight to host.app', async () => {
    const test = await hostWithEverything();
    test.host.app.get('/api/plain/:thingId', (_request, response) => void response.json({}));
    test.host.addRoute({
      method: 'get',
      path: '/api/described',
      summary: 'Described',
      responses: { 200: { description: 'ok' } },
      handler: (_q, r) => void r.json({}),
    });
    const document = (await test.request('/openapi/v1.json')).body as Document;
    const served = [
      ...test.host.routes().map((route) => ({ method: route.method, path: route.path })),
      ...((test.host.app as any).router.stack as any[])
        .filter((layer) => layer.route)
        .flatMap((layer) =>
          Object.keys(layer.route.methods).map((method) => ({ method, path: layer.route.path as string })),
        ),
    ];
    expect(served.length).toBeGreaterThan(30);
    for (const { method, path } of served) {
      const openApiPath = path.replace(/:(\w+)/g, '{$1}');
      expect([method, openApiPath, Boolean(document.paths[openApiPath]?.[method])]).toEqual([
        method,
        openApiPath,
        true,
      ]);
    }
    expect(document.paths['/api/plain/{thingId}'].get.responses.default).toBeDefined();
  });

  it('every documented operation is really served (never 404 ROUTE_NOT_FOUND or 405)', async () => {
    const test = await hostWithEverything();
    const document = (await test.request('/openapi/v1.json')).body as Document;
    for (const { path, method } of operations(document)) {
      const concrete = path.replace(/\{(\w+)\}/g, 'sample');
      const response = await fetch(`${test.base}${concrete}`, { method: method.toUpperCase() });
      const code = /json/.test(response.headers.get('content-type') ?? '')
        ? ((await response.json()) as { code?: string }).code
        : undefined;
      if (!response.bodyUsed) await response.body?.cancel();
      expect([method, path, response.status === 405 || code === 'ROUTE_NOT_FOUND']).toEqual([
        method,
        path,
        false,
      ]);
    }
  });

  it("documents each catalog's list, by-id and narrowing routes from its entry schema", async () => {
    const test = await hostWithEverything();
    const document = (await test.request('/openapi/v1.json')).body as Document;
    const list = document.paths['/engine/widgets'].get;
    const byId = document.paths['/engine/widgets/{id}'].get;
    const narrowed = document.paths['/engine/widgets/providers/{providerId}'].get;
    expect(byId.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(narrowed.parameters).toEqual([
      expect.objectContaining({
        name: 'providerId',
        in: 'path',
        required: true,
        description: 'widgets of one provider',
      }),
    ]);
    expect(byId.responses['404'].content['application/problem+json']).toBeDefined();
    const entryRef = byId.responses['200'].content['application/json'].schema.$ref as string;
    const entry = document.components.schemas[entryRef.split('/').pop()!];
    expect(entry.properties.color).toEqual({ type: 'string', enum: ['red', 'blue'] });
    const listSchema =
      document.components.schemas[
        (list.responses['200'].content['application/json'].schema.$ref as string).split('/').pop()!
      ];
    expect(listSchema).toEqual({ type: 'array', items: { $ref: entryRef } });
    expect(list.tags).toEqual(['Widgets']);
    for (const view of test.host.engine.catalogs())
      expect(document.paths[view.definition.path]?.get).toBeDefined();
  });

  it('documents the health routes with their 200 and 503 answers, and the snapshot with every catalog field', async () => {
    const test = await hostWithEverything();
    const document = (await test.request('/openapi/v1.json')).body as Document;
    for (const path of ['/health', '/health/live', '/health/ready', '/health/startup']) {
      expect(Object.keys(document.paths[path].get.responses).sort()).toEqual(['200', '503', 'default']);
    }
    expect(document.paths['/health/startup'].get.description).toContain('never depends on dependency health');
    const snapshotRef = document.paths['/engine/snapshot'].get.responses['200'].content['application/json']
      .schema.$ref as string;
    const snapshot = document.components.schemas[snapshotRef.split('/').pop()!];
    for (const view of test.host.engine.catalogs())
      expect(snapshot.properties[view.definition.snapshotField]).toBeDefined();
    expect(document.paths['/engine/events'].get.responses['200'].content['text/event-stream']).toBeDefined();
    expect(document.paths['/engine/events/ws'].get.responses['101']).toBeDefined();
  });

  it('marks guarded routes and documents their 403', async () => {
    const test = await startTestHost({
      configuration: { Engine: { Web: { EngineRoutes: { RequireAuthorization: true } } } },
      host: { authorize: () => true },
    });
    const document = (await test.request('/openapi/v1.json')).body as Document;
    expect(document.paths['/engine/status'].get.responses['403']).toBeDefined();
    expect(document.paths['/health/ready'].get.responses['403']).toBeUndefined();
  });

  it('is not served when Engine:Web:OpenApi:Enabled is false (and neither is /scalar)', async () => {
    const test = await startTestHost({ configuration: { Engine: { Web: { OpenApi: { Enabled: false } } } } });
    expect((await test.request('/openapi/v1.json')).status).toBe(404);
    expect((await test.request('/scalar')).status).toBe(404);
  });
});

describe('/scalar', () => {
  it('serves an API reference page over /openapi/v1.json that references only URLs of this host', async () => {
    const test = await startTestHost();
    const { status, text, headers } = await test.request('/scalar');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/html/);
    const references = [...text.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((match) => match[1]);
    expect(references).toEqual(['/scalar/standalone.js']);
    expect(text).not.toMatch(/https?:\/\//);
    expect(text).toContain('"url": "/openapi/v1.json"');
    expect(text).toContain('"withDefaultFonts": false');
    expect(text).toContain('Scalar.createApiReference');
  });

  it('serves the Scalar browser bundle from the installed package as JavaScript', async () => {
    const test = await startTestHost();
    const { status, text, headers } = await test.request('/scalar/standalone.js');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text).toContain('createApiReference');
  });
});
