import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { emptyContentDirectory } from '@corekit/testing/test-engine-builder';
import { createBehaviorClient } from '@corekit/transport-grpc';
import { createWebHost, type WebHost } from '@corekit/web-host';
import WebSocket from 'ws';
import { InventoryUpstream } from './inventory-upstream';
import { addOrdersModule } from './orders-module';
import { addTransportsDemo } from './packs/transports-demo';

let host: WebHost | undefined;
let upstream: InventoryUpstream | undefined;
const clients: Array<{ close(): void }> = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await host?.close();
  await upstream?.close?.();
  host = upstream = undefined;
});

/** The sample's orders module and the transports demo on a web host serving every transport. */
async function start() {
  const builder = createEngineBuilder({
    // No engine.json: the sample's own sections (Engine:Sample...) are bound by createSampleHost only.
    contentRoot: emptyContentDirectory(),
    environment: {},
    logger: createMemoryLogger(),
    configuration: {
      Engine: {
        Transports: ['RestApi', 'ServerSentEvents', 'WebSocket', 'GraphQL', 'Grpc', 'JsonRpc'],
        Grpc: { Port: 0 },
      },
    },
  });
  upstream = new InventoryUpstream();
  await upstream.listen(0);
  addOrdersModule(builder, upstream);
  const { grpc } = addTransportsDemo(builder);
  host = createWebHost(builder, { port: 0, handleSignals: false, environment: {} });
  const { port } = await host.listen();
  const base = `http://127.0.0.1:${port}`;
  const json = async (path: string, init?: RequestInit) =>
    (await (await fetch(`${base}${path}`, init)).json()) as any;
  const post = (path: string, body: unknown) =>
    json(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const grpcClient = createBehaviorClient(grpc.proto()!, `127.0.0.1:${grpc.port()}`);
  clients.push(grpcClient);
  return { base, json, post, grpcClient, host };
}

describe('the orders behaviors answer the same over REST, GraphQL, gRPC and JSON-RPC', () => {
  it('places orders and reads them back identically on every transport', async () => {
    const { json, post, grpcClient } = await start();
    const rest = await post('/api/orders', { sku: 'LAMP-7', quantity: 2 });
    const graphql = (
      await post('/graphql', {
        query: 'mutation { ordersPlace(sku: "DESK-1", quantity: 1) { orderId sku quantity placedAtUtc } }',
      })
    ).data.ordersPlace;
    const viaGrpc = (await grpcClient.call('OrdersPlace', { sku: 'LAMP-7', quantity: 3 })).response;
    const jsonRpc = (
      await post('/rpc', {
        jsonrpc: '2.0',
        id: 1,
        method: 'orders.place',
        params: { sku: 'CHAIR-2', quantity: 4 },
      })
    ).result;
    expect([rest.orderId, graphql.orderId, viaGrpc.orderId, jsonRpc.orderId]).toEqual([
      'ord-1',
      'ord-2',
      'ord-3',
      'ord-4',
    ]);

    const one = await json('/api/orders/ord-3');
    expect(one).toEqual(viaGrpc);
    expect(
      (
        await post('/graphql', {
          query: '{ ordersGet(orderId: "ord-3") { orderId sku quantity placedAtUtc } }',
        })
      ).data.ordersGet,
    ).toEqual(one);
    expect((await grpcClient.call('OrdersGet', { orderId: 'ord-3' })).response).toEqual(one);
    expect(
      (await post('/rpc', { jsonrpc: '2.0', id: 2, method: 'orders.get', params: { orderId: 'ord-3' } }))
        .result,
    ).toEqual(one);

    const list = await json('/api/orders');
    expect(
      (await post('/graphql', { query: '{ ordersList { orderId sku quantity placedAtUtc } }' })).data
        .ordersList,
    ).toEqual(list);
    expect((await grpcClient.call('OrdersList', {})).response.value).toEqual(list);
    expect((await post('/rpc', { jsonrpc: '2.0', id: 3, method: 'orders.list', params: {} })).result).toEqual(
      list,
    );

    const summary = await json('/api/orders-summary');
    expect(summary).toEqual({ orders: 4, unitsBySku: { 'LAMP-7': 5, 'DESK-1': 1, 'CHAIR-2': 4 } });
    expect(
      (await post('/graphql', { query: '{ ordersSummary { orders unitsBySku } }' })).data.ordersSummary,
    ).toEqual(summary);
    expect((await grpcClient.call('OrdersSummary', {})).response).toEqual(summary);
    expect((await post('/rpc', { jsonrpc: '2.0', id: 4, method: 'orders.summary' })).result).toEqual(summary);
  });

  it('answers a missing order with the mapped error on every transport', async () => {
    const { json, post, grpcClient } = await start();
    expect(await json('/api/orders/ord-404')).toMatchObject({ status: 404, code: 'ORDER_NOT_FOUND' });
    expect(
      (await post('/graphql', { query: '{ ordersGet(orderId: "ord-404") { orderId } }' })).errors[0]
        .extensions,
    ).toMatchObject({ code: 'NOT_FOUND', errorCode: 'ORDER_NOT_FOUND' });
    const grpcError = (await grpcClient.call('OrdersGet', { orderId: 'ord-404' })).error!;
    expect([grpcError.code, grpcError.metadata.get('corekit-error-code')[0]]).toEqual([5, 'ORDER_NOT_FOUND']);
    expect(
      (await post('/rpc', { jsonrpc: '2.0', id: 1, method: 'orders.get', params: { orderId: 'ord-404' } }))
        .error,
    ).toMatchObject({ code: -32004, data: { code: 'ORDER_NOT_FOUND' } });
  });

  it('streams the orders over SSE and WebSocket, and every adapter reports its operations', async () => {
    const { base, post, host: web } = await start();
    await post('/api/orders', { sku: 'LAMP-7', quantity: 1 });
    await post('/api/orders', { sku: 'DESK-1', quantity: 2 });
    const sse = await (await fetch(`${base}/streams/orders.replay`)).text();
    const items = sse
      .split('\n\n')
      .filter((frame) => frame.includes('event: item'))
      .map((frame) => JSON.parse(frame.split('data: ')[1]).orderId);
    expect(items).toEqual(['ord-1', 'ord-2']);
    const frames = await new Promise<any[]>((resolve, reject) => {
      const socket = new WebSocket(
        `${base.replace('http', 'ws')}/streams/orders.replay/ws?input=${encodeURIComponent('{"sku":"DESK-1"}')}`,
      );
      const received: any[] = [];
      socket.on('message', (data) => received.push(JSON.parse(String(data))));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(frames.map((frame) => frame.type)).toEqual(['item', 'end']);
    expect(frames[0].data).toMatchObject({ orderId: 'ord-2', sku: 'DESK-1' });
    const surfaces = web.engine.technologySurfaces().filter((surface) => surface.kind === 'transport');
    for (const surface of surfaces) {
      expect(surface.metadata.operations).toEqual([
        'orders.get',
        'orders.list',
        'orders.place',
        'orders.summary',
      ]);
    }
    expect(surfaces.map((surface) => surface.id).sort()).toEqual([
      'transport-graphql',
      'transport-grpc',
      'transport-jsonrpc',
    ]);
  });
});
