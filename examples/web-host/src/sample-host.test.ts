import { sampleHostStarter } from './test-support/sample-starter';

const startSample = sampleHostStarter();

async function start(environment: Record<string, string> = {}, configuration?: Record<string, unknown>) {
  const sample = await startSample(environment, configuration);
  const { base } = sample;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers });
    const text = await response.text();
    return {
      status: response.status,
      text,
      body: /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined,
    };
  };
  return { ...sample, get };
}

describe('the sample web host', () => {
  it('/health/ready is 200 Healthy with both self-served upstream dependencies probed', async () => {
    const { get } = await start();
    const { status, body } = await get('/health/ready');
    expect([status, body.status]).toEqual([200, 'Healthy']);
    expect(
      body.dependencies.map((entry: { id: string; status: string }) => `${entry.id}:${entry.status}`),
    ).toEqual(['inventory-api:Healthy', 'pricing-api:Healthy']);
  });

  it('declares a realistic catalog set: a graph with a hosted execution, a data product, an outbox, a policy, two cells with routes', async () => {
    const { get } = await start();
    const ids = async (path: string) =>
      ((await get(path)).body as Array<{ id: string }>).map((entry) => entry.id);
    expect(await ids('/engine/execution-graphs')).toEqual(expect.arrayContaining(['order-fulfilment']));
    expect(await ids('/engine/hosted-executions')).toEqual(expect.arrayContaining(['order-expiry-sweeper']));
    expect(await ids('/engine/data-products')).toEqual(expect.arrayContaining(['orders-daily']));
    expect(await ids('/engine/outboxes')).toEqual(expect.arrayContaining(['orders-outbox']));
    expect(await ids('/engine/authorization-policies')).toEqual(expect.arrayContaining(['order-operators']));
    expect(await ids('/engine/cells')).toEqual(['eu-west-1', 'us-east-1']);
    expect(await ids('/engine/cell-routes')).toEqual(['eu-tenants', 'us-tenants']);
    expect((await get('/engine/cell-routes/eu-tenants')).body.materializationState).toBe('pending');
    expect(await ids('/engine/cell-traffic-automations/edge-nodes/edge-fra')).toEqual(['eu-failover']);
    const story = (await get('/engine/runtime-story')).body;
    expect(story.executions.find((item: { id: string }) => item.id === 'order-expiry-sweeper').state).toBe(
      'active',
    );
  });

  it('/engine, /engine/snapshot, /openapi/v1.json and /scalar answer with the sample module in them', async () => {
    const { get } = await start();
    const index = await get('/engine');
    expect(index.body.links.length).toBeGreaterThan(20);
    const snapshot = (await get('/engine/snapshot')).body;
    expect(snapshot.manifest.modules.map((module: { id: string }) => module.id)).toContain('orders');
    expect(snapshot.executionGraphs[0]).toMatchObject({ id: 'order-fulfilment', entryNodeId: 'place' });
    expect(snapshot.hostedExecutions[0].id).toBe('order-expiry-sweeper');
    expect(snapshot.dataProducts[0].id).toBe('orders-daily');
    expect(snapshot.authorizationPolicies[0].metadata.sourceModuleId).toBe('orders');
    expect(
      snapshot.technologySurfaces.some((surface: { id: string }) => surface.id === 'orders-rest-api'),
    ).toBe(true);
    const openApi = (await get('/openapi/v1.json')).body;
    expect(Object.keys(openApi.paths)).toEqual(
      expect.arrayContaining(['/api/orders', '/api/orders/status', '/engine/execution-graphs']),
    );
    const scalar = await get('/scalar');
    expect([scalar.status, scalar.text.includes('/scalar/standalone.js')]).toEqual([200, true]);
  });

  it('places orders through the module route', async () => {
    const { base, get } = await start();
    const placed = await fetch(`${base}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sku: 'LAMP-7', quantity: 2 }),
    });
    expect(placed.status).toBe(201);
    expect((await get('/api/orders')).body[0]).toMatchObject({ sku: 'LAMP-7', quantity: 2 });
    const invalid = await fetch(`${base}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sku": ""}',
    });
    expect(invalid.status).toBe(400);
  });

  it('readiness turns 503 when the required upstream goes down, and Degraded when the optional one slows', async () => {
    const { base, get, host: sampleHost } = await start();
    const refresh = () =>
      (sampleHost.engine as unknown as { refreshDependencies(): Promise<void> }).refreshDependencies();
    await fetch(`${base}/api/demo/upstreams/pricing/slow`, { method: 'POST' });
    await refresh();
    const degraded = await get('/health/ready');
    expect([degraded.status, degraded.body.status]).toEqual([200, 'Degraded']);
    await fetch(`${base}/api/demo/upstreams/inventory/down`, { method: 'POST' });
    await refresh();
    const down = await get('/health/ready');
    expect([down.status, down.body.status]).toEqual([503, 'Unhealthy']);
    expect(down.body.dependencies[0].error.code).toBe('UNEXPECTED_STATUS');
  });

  it('with NODE_ENV=production and no operator token, /engine/dependencies refuses an anonymous request and startup says how to open it', async () => {
    const { get, logger } = await start({ NODE_ENV: 'production' });
    const refused = await get('/engine/dependencies');
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(refused.text).not.toContain('inventory-api');
    const warning = logger.records.find((record) => String(record.message).includes('/engine routes'));
    expect(warning?.message).toContain('Engine__Web__EngineRoutes__Exposure=Open');
  });

  it('the production setting (engine.production.json) guards details and /engine with SAMPLE_OPERATOR_TOKEN, never logging it', async () => {
    const production = {
      Engine: {
        Web: { Health: { ShowDetails: 'WhenAuthorized' }, EngineRoutes: { RequireAuthorization: true } },
      },
    };
    const { get, logger } = await start({ SAMPLE_OPERATOR_TOKEN: 'operator-token-123' }, production);
    const operator = { authorization: 'Bearer operator-token-123' };
    const anonymous = await get('/health/ready');
    expect([anonymous.status, Object.keys(anonymous.body).sort()]).toEqual([
      200,
      ['checkedAtUtc', 'duration', 'durationMs', 'status'],
    ]);
    expect((await get('/health/ready', operator)).body.dependencies).toHaveLength(2);
    // Anonymous: 401 with a Bearer challenge; a wrong token: 403 (the web host's one exposure gate).
    expect((await get('/engine/status')).status).toBe(401);
    expect((await get('/engine/status', { authorization: 'Bearer operator-token-12' })).status).toBe(403);
    expect((await get('/engine/status', operator)).status).toBe(200);
    expect(JSON.stringify(logger.records)).not.toContain('operator-token-123');
  });
});
