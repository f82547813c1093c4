import { createMemoryLogger } from '@corekit/engine-core';
import type { WebHost } from '@corekit/web-host';
import { createSampleHost } from './sample-host';
import { testDataDirectory } from './test-support/test-data-directory';

const dataDirectory = testDataDirectory();

let host: WebHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function start() {
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    dataDirectory,
    environment: {},
    logger: createMemoryLogger(),
  });
  host = sample.host;
  const { port } = await sample.host.listen();
  const base = `http://127.0.0.1:${port}`;
  const request = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${base}${path}`, init);
    return { status: response.status, body: (await response.json()) as any };
  };
  return { request };
}

describe('the sample publishes its order behaviors in each REST authoring style', () => {
  it('explicit DSL, generated shorthand, inline helper and the engine.json profile mapping all answer', async () => {
    const { request } = await start();
    const placed = await request('/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sku: 'LAMP-7', quantity: 2 }),
    });
    expect(placed).toMatchObject({ status: 201, body: { orderId: 'ord-1', sku: 'LAMP-7' } });
    expect(await request('/api/orders/ord-1')).toMatchObject({ status: 200, body: { orderId: 'ord-1' } });
    expect(await request('/v2/orders/ord-1')).toMatchObject({ status: 200, body: { orderId: 'ord-1' } });
    expect(await request('/api/orders-summary')).toMatchObject({
      status: 200,
      body: { orders: 1, unitsBySku: { 'LAMP-7': 2 } },
    });
    expect(await request('/partner/orders/ord-1')).toMatchObject({ status: 200, body: { orderId: 'ord-1' } });
    expect(await request('/partner/orders/ord-404')).toMatchObject({
      status: 404,
      body: { code: 'ORDER_NOT_FOUND' },
    });

    const endpoints = (await request('/engine/rest-endpoints')).body as Array<{
      authoringStyle: string;
      method: string;
      path: string;
    }>;
    expect([...new Set(endpoints.map((endpoint) => endpoint.authoringStyle))].sort()).toEqual([
      'explicit-module-dsl',
      'generated-profile-shorthand',
      'inline-helper',
      'profile-mapping',
    ]);
    const override = (await request('/engine/rest-endpoint-overrides/public-orders-v1')).body;
    expect(override).toMatchObject({ outcome: 'selected-without-change', appliedCandidateIds: [] });
    expect((await request('/engine/rest-endpoints/orders:api:orders.get')).body).toMatchObject({
      selectedOverrideId: 'public-orders-v1',
      overrideSelectionBasis: 'scope',
      appliedOverrideId: null,
    });
    expect(Object.keys((await request('/openapi/v2.json')).body.paths)).toEqual(
      expect.arrayContaining(['/v2/orders', '/v2/orders/{orderId}']),
    );
    expect(Object.keys((await request('/openapi/partner/v1.json')).body.paths)).toEqual([
      '/partner/orders/{orderId}',
    ]);
  });
});
