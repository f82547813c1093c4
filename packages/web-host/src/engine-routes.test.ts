import {
  dependenciesDocumentSchema,
  diagnosticsDocumentSchema,
  engineIndexDocumentSchema,
  manifestDocumentSchema,
  packagesDocumentSchema,
  policyDocumentSchema,
  problemDetailsSchema,
  runtimeStoryDocumentSchema,
  snapshotDocumentSchema,
  statusDocumentSchema,
  technologySurfacesDocumentSchema,
} from '@corekit/abstractions';
import type { ZodType } from 'zod';
import { closeTestHosts, controlledDependency, startTestHost } from './test-support/test-host';
import { addWidgetCatalogs } from './test-support/widget-catalogs';

afterEach(closeTestHosts);

const surfaces: Array<[string, ZodType]> = [
  ['/engine', engineIndexDocumentSchema],
  ['/engine/status', statusDocumentSchema],
  ['/engine/dependencies', dependenciesDocumentSchema],
  ['/engine/diagnostics', diagnosticsDocumentSchema],
  ['/engine/runtime-story', runtimeStoryDocumentSchema],
  ['/engine/manifest', manifestDocumentSchema],
  ['/engine/snapshot', snapshotDocumentSchema],
  ['/engine/packages', packagesDocumentSchema],
  ['/engine/package-policy', policyDocumentSchema],
  ['/engine/trust-policy', policyDocumentSchema],
  ['/engine/technology-surfaces', technologySurfacesDocumentSchema],
];

function withEverything() {
  return startTestHost({
    setup: (builder) => {
      addWidgetCatalogs(builder);
      builder.addDependencyHealthContributor(controlledDependency('ledger-db', true));
      builder.addTechnologySurfaces(() => [
        {
          id: 'widget-bus',
          kind: 'event-channels',
          displayName: 'Widget bus',
          sourcePackage: '@example/widgets',
          metadata: { retryPolicy: 'none' },
        },
      ]);
    },
  });
}

describe('/engine read surfaces', () => {
  it.each(surfaces)('%s answers 200 with a body that matches its documented schema', async (path, schema) => {
    const test = await withEverything();
    const { status, body, headers } = await test.request(path);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    const parsed = schema.safeParse(body);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('answers with the engine truth: status, dependencies, manifest, policies, technology surfaces and the diagnostics health routes', async () => {
    const test = await withEverything();
    expect((await test.request('/engine/status')).body).toMatchObject({
      state: 'Started',
      readiness: 'Healthy',
    });
    expect(
      (await test.request('/engine/dependencies')).body.map((entry: { id: string }) => entry.id),
    ).toEqual(['ledger-db']);
    expect((await test.request('/engine/manifest')).body.modules).toEqual([
      {
        id: 'workshop',
        version: '2.1.0',
        displayName: 'workshop',
        capabilities: ['widgets.make'],
        origin: 'code',
      },
    ]);
    const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
    expect((await test.request('/engine/package-policy')).body).toEqual(
      plain(test.host.engine.packagePolicy()),
    );
    expect((await test.request('/engine/trust-policy')).body).toEqual(plain(test.host.engine.trustPolicy()));
    expect((await test.request('/engine/packages')).body).toEqual(plain(test.host.engine.packages()));
    expect((await test.request('/engine/technology-surfaces')).body[0].id).toBe('widget-bus');
    expect((await test.request('/engine/diagnostics')).body.healthRoutes).toEqual([
      '/health',
      '/health/live',
      '/health/ready',
      '/health/startup',
    ]);
    const story = (await test.request('/engine/runtime-story')).body;
    expect(story.modules[0]).toMatchObject({ moduleId: 'workshop', state: 'started' });
    expect(story.timeline.some((entry: { transition: string }) => entry.transition === 'started')).toBe(true);
  });

  it('lists the web host event ids as their own named range in /engine/diagnostics, beside the spec ranges', async () => {
    const test = await withEverything();
    const { eventIds } = (await test.request('/engine/diagnostics')).body as {
      eventIds: Array<{ component: string; ranges: number[][]; names?: Record<string, string> }>;
    };
    const webHost = eventIds.find((range) => range.component === 'Web host');
    expect(webHost?.ranges).toEqual([[2010, 2029]]);
    expect(webHost?.names).toMatchObject({
      '2010': 'listening',
      '2017': 'engine-routes-unguarded-in-production',
    });
    expect(eventIds.find((range) => range.component === 'Engine core')?.ranges).toEqual([[2000, 2005]]);
  });

  it('/engine/snapshot is the merged answer: status, manifest, runtime story and diagnostics with every catalog', async () => {
    const test = await withEverything();
    const snapshot = (await test.request('/engine/snapshot')).body;
    expect(snapshot.runtimeStory.modules[0]).toMatchObject({ moduleId: 'workshop', state: 'started' });
    expect(snapshot.runtimeStory.timeline.length).toBeGreaterThan(0);
    expect(snapshot.diagnostics).toMatchObject({ meterName: 'corekit.engine', warnings: [], jobs: [] });
    expect(snapshot.diagnostics.eventIds.length).toBeGreaterThan(10);
    expect(snapshot.status.state).toBe('Started');
  });

  it('the snapshot carries every registered catalog under its snapshot field', async () => {
    const test = await withEverything();
    const { body } = await test.request('/engine/snapshot');
    expect(body.widgets.map((entry: { id: string }) => entry.id)).toEqual(['w-1', 'w-2', 'w-3']);
    expect(body.widgetStates).toHaveLength(2);
    for (const view of test.host.engine.catalogs())
      expect(Array.isArray(body[view.definition.snapshotField])).toBe(true);
  });

  it('the index links every GET surface the host serves, catalogs included, and every link answers', async () => {
    const test = await withEverything();
    const { body } = await test.request('/engine');
    const hrefs = body.links.map((link: { href: string }) => link.href);
    for (const [path] of surfaces) expect(hrefs).toContain(path);
    for (const path of [
      '/health',
      '/health/live',
      '/health/ready',
      '/openapi/v1.json',
      '/scalar',
      '/engine/widgets',
      '/engine/widgets/{id}',
      '/engine/widgets/providers/{providerId}',
      '/engine/widgets/runtime',
    ]) {
      expect(hrefs).toContain(path);
    }
    for (const view of test.host.engine.catalogs()) expect(hrefs).toContain(view.definition.path);
    for (const link of body.links.filter((candidate: { templated: boolean }) => !candidate.templated)) {
      expect([link.href, (await test.request(link.href)).status]).toEqual([link.href, 200]);
    }
  });
});

describe('catalog routes, generically', () => {
  it('lists, finds by id and narrows a catalog a pack registered, with no web host change', async () => {
    const test = await withEverything();
    expect((await test.request('/engine/widgets')).body.map((entry: { id: string }) => entry.id)).toEqual([
      'w-1',
      'w-2',
      'w-3',
    ]);
    expect((await test.request('/engine/widgets/w-2')).body).toMatchObject({ id: 'w-2', color: 'blue' });
    expect(
      (await test.request('/engine/widgets/providers/acme')).body.map((entry: { id: string }) => entry.id),
    ).toEqual(['w-1', 'w-2']);
    expect(
      (await test.request('/engine/widgets/colors/blue')).body.map((entry: { id: string }) => entry.id),
    ).toEqual(['w-2', 'w-3']);
    expect((await test.request('/engine/widgets/providers/initech')).body).toEqual([]);
  });

  it('a literal path segment of another catalog wins over the id parameter', async () => {
    const test = await withEverything();
    expect((await test.request('/engine/widgets/runtime')).body).toEqual([
      { widgetId: 'w-1', spinning: true },
      { widgetId: 'w-2', spinning: false },
    ]);
    expect((await test.request('/engine/widgets/runtime/w-2')).body).toEqual({
      widgetId: 'w-2',
      spinning: false,
    });
  });

  it('an unknown id answers 404 problem details with the stable code CATALOG_ENTRY_NOT_FOUND', async () => {
    const test = await withEverything();
    const { status, body, headers } = await test.request('/engine/widgets/w-404');
    expect(status).toBe(404);
    expect(headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(problemDetailsSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      code: 'CATALOG_ENTRY_NOT_FOUND',
      status: 404,
      instance: '/engine/widgets/w-404',
      catalogId: 'widgets',
      id: 'w-404',
    });
    expect((await test.request('/engine/widgets/runtime/w-404')).body.code).toBe('CATALOG_ENTRY_NOT_FOUND');
  });

  it('serves the catalogs the engine registers itself', async () => {
    const test = await withEverything();
    const builtIn = test.host.engine
      .catalogs()
      .filter((view) => view.definition.id !== 'widgets' && view.definition.id !== 'widget-states');
    expect(builtIn.length).toBeGreaterThan(0);
    for (const view of builtIn) {
      const { status, body } = await test.request(view.definition.path);
      expect([view.definition.path, status, Array.isArray(body)]).toEqual([view.definition.path, 200, true]);
    }
  });
});

describe('Engine:Web:EngineRoutes:RequireAuthorization', () => {
  const guarded = { Engine: { Web: { EngineRoutes: { RequireAuthorization: true } } } };

  it('guards every /engine route with the authorize hook (403 problem) and leaves the health status open', async () => {
    const test = await startTestHost({
      configuration: guarded,
      setup: addWidgetCatalogs,
      host: { authorize: (request) => request.headers['x-operator'] === 'yes' },
    });
    for (const path of [
      '/engine',
      '/engine/status',
      '/engine/snapshot',
      '/engine/widgets',
      '/engine/widgets/w-1',
    ]) {
      const denied = await test.request(path);
      expect([path, denied.status, denied.body.code]).toEqual([path, 403, 'FORBIDDEN']);
      const allowed = await test.request(path, { headers: { 'x-operator': 'yes' } });
      expect([path, allowed.status]).toEqual([path, 200]);
    }
    expect((await test.request('/health/ready')).status).toBe(200);
  });

  it('fails at startup when no authorize hook is given', async () => {
    await expect(startTestHost({ configuration: guarded })).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: expect.stringContaining('Engine:Web:EngineRoutes:RequireAuthorization'),
    });
  });
});
