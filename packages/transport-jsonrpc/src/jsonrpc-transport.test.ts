import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { transportTestHosts } from '@corekit/testing/transport-test-host';
import { createWebHost } from '@corekit/web-host';
import { addJsonRpcTransport, jsonRpcErrorCodes } from './index';

const { startHost, closeHosts } = transportTestHosts(createWebHost);
afterEach(closeHosts);

async function rpc(base: string, body: unknown, path = '/rpc') {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const jsonRpc = (builder: Parameters<typeof addJsonRpcTransport>[0]) => void addJsonRpcTransport(builder);

describe('JSON-RPC 2.0 over HTTP POST', () => {
  it('calls a behavior by id with by-name params', async () => {
    const { base } = await startHost(['RestApi', 'JsonRpc'], jsonRpc);
    const answer = await rpc(base, { jsonrpc: '2.0', id: 7, method: 'notes.get', params: { id: 'n1' } });
    expect(answer).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 7, result: { id: 'n1', text: 'hello' } },
    });
  });

  it('refuses bodies that are not UTF-8 JSON with 415 and never runs the call (no cross-site mutation)', async () => {
    const { base } = await startHost(['JsonRpc'], jsonRpc);
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'notes.create', params: { text: 'csrf' } });
    const send = async (contentType: string, body: string | Buffer) => {
      const response = await fetch(`${base}/rpc`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    for (const [contentType, body] of [
      ['text/plain', call],
      ['application/x-www-form-urlencoded', call],
      ['application/json; charset=utf-7', call],
      ['application/json; charset=utf-16le', Buffer.from(call, 'utf16le')],
      ['application/json', Buffer.from(call, 'utf16le')],
    ] as const) {
      const answer = await send(contentType, body);
      expect(answer.status).toBe(415);
      expect(answer.body.error).toMatchObject({
        code: -32600,
        data: { code: 'JSONRPC_UNSUPPORTED_MEDIA_TYPE' },
      });
    }
    const created = await rpc(base, {
      jsonrpc: '2.0',
      id: 2,
      method: 'notes.create',
      params: { text: 'ok' },
    });
    expect(created.body.result).toEqual({ id: 'n2', text: 'ok' });
  });

  it('answers the standard errors: parse, invalid request, unknown method, invalid params', async () => {
    const { base } = await startHost(['JsonRpc'], jsonRpc);
    expect((await rpc(base, '{"jsonrpc":')).body.error).toMatchObject({ code: -32700 });
    expect((await rpc(base, { jsonrpc: '1.0', id: 1, method: 'notes.get' })).body).toMatchObject({
      id: 1,
      error: { code: -32600 },
    });
    expect((await rpc(base, [])).body.error).toMatchObject({
      code: -32600,
      data: { code: 'JSONRPC_EMPTY_BATCH' },
    });
    expect((await rpc(base, { jsonrpc: '2.0', id: 2, method: 'notes.nope' })).body.error).toMatchObject({
      code: -32601,
      data: { code: 'JSONRPC_METHOD_NOT_FOUND' },
    });
    const invalid = await rpc(base, { jsonrpc: '2.0', id: 3, method: 'notes.create', params: { text: '' } });
    expect(invalid.body.error).toMatchObject({
      code: -32602,
      data: {
        code: 'BEHAVIOR_INPUT_INVALID',
        kind: 'invalid-input',
        status: 400,
        errors: [{ path: 'text' }],
      },
    });
    const positional = await rpc(base, { jsonrpc: '2.0', id: 4, method: 'notes.create', params: ['x'] });
    expect(positional.body.error.code).toBe(-32602);
  });

  it('maps behavior errors through the error-kind table and hides unexpected errors (-32603)', async () => {
    const { base, logger } = await startHost(['JsonRpc'], jsonRpc);
    const missing = await rpc(base, { jsonrpc: '2.0', id: 'a', method: 'notes.get', params: { id: 'zz' } });
    expect(missing.body).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      error: {
        code: jsonRpcErrorCodes['not-found'],
        message: 'No note "zz"',
        data: { id: 'zz', code: 'NOTE_NOT_FOUND', kind: 'not-found', status: 404 },
      },
    });
    const crash = await rpc(base, { jsonrpc: '2.0', id: 'b', method: 'notes.explode', params: {} });
    expect(crash.body.error).toMatchObject({ code: -32603, data: { code: 'JSONRPC_INTERNAL_ERROR' } });
    expect(JSON.stringify(crash.body)).not.toContain('secret internal detail');
    expect(logger.records.some((record) => record.eventId === 3281)).toBe(true);
  });

  it('answers batches in order, skips notifications, and answers 204 to notifications only', async () => {
    const { base, host } = await startHost(['JsonRpc'], jsonRpc);
    const batch = await rpc(base, [
      { jsonrpc: '2.0', id: 1, method: 'notes.create', params: { text: 'one' } },
      { jsonrpc: '2.0', method: 'notes.create', params: { text: 'silent' } },
      { jsonrpc: '2.0', id: 2, method: 'notes.get', params: { id: 'missing' } },
      42,
    ]);
    expect(batch.body.map((answer: { id: unknown }) => answer.id)).toEqual([1, 2, null]);
    expect(batch.body[2].error.code).toBe(-32600);
    const onlyNotifications = await rpc(base, {
      jsonrpc: '2.0',
      method: 'notes.create',
      params: { text: 'x' },
    });
    expect(onlyNotifications).toEqual({ status: 204, body: null });
    const created = await rpc(base, { jsonrpc: '2.0', id: 9, method: 'notes.get', params: { id: 'n3' } });
    expect(created.body.result.text).toBe('silent');
    const surface = host.engine.technologySurfaces().find((entry) => entry.id === 'transport-jsonrpc')!;
    expect(surface.metadata).toMatchObject({
      mounted: true,
      path: '/rpc',
      operations: ['notes.create', 'notes.explode', 'notes.get'],
    });
  });

  it('refuses bodies over MaxBodyBytes with 413 and batches over MaxBatchSize, at a configured path', async () => {
    const { base } = await startHost(['JsonRpc'], jsonRpc, {
      JsonRpc: { Path: '/api/rpc', MaxBodyBytes: 1024, MaxBatchSize: 2 },
    });
    const big = await rpc(
      base,
      { jsonrpc: '2.0', id: 1, method: 'notes.create', params: { text: 'x'.repeat(2000) } },
      '/api/rpc',
    );
    expect([big.status, big.body.error.data.code]).toEqual([413, 'JSONRPC_BODY_TOO_LARGE']);
    const call = { jsonrpc: '2.0', id: 1, method: 'notes.get', params: { id: 'n1' } };
    const batch = await rpc(base, [call, call, call], '/api/rpc');
    expect(batch.body.error.data.code).toBe('JSONRPC_BATCH_TOO_LARGE');
    expect((await fetch(`${base}/rpc`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('refuses an oversized body before parsing it and an oversized batch before any of its calls runs', async () => {
    const { base } = await startHost(['JsonRpc'], jsonRpc, {
      JsonRpc: { MaxBodyBytes: 1024, MaxBatchSize: 2 },
    });
    // Not JSON, and chunked (no Content-Length): parsed first it would be a -32700 parse error.
    const chunked = new ReadableStream({
      start(controller) {
        for (let index = 0; index < 8; index += 1)
          controller.enqueue(new TextEncoder().encode('{'.repeat(512)));
        controller.close();
      },
    });
    const big = await fetch(`${base}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: unknown }).error).toMatchObject({
      code: -32600,
      data: { code: 'JSONRPC_BODY_TOO_LARGE' },
    });
    const create = { jsonrpc: '2.0', id: 1, method: 'notes.create', params: { text: 'batched' } };
    const batch = await rpc(base, [create, create, create]);
    expect(batch.body.error.data.code).toBe('JSONRPC_BATCH_TOO_LARGE');
    // None of the three creates ran: the next note is still n2.
    const next = await rpc(base, { ...create, params: { text: 'single' } });
    expect(next.body.result).toEqual({ id: 'n2', text: 'single' });
  });

  it('stays out of the REST catalogs and refuses unknown options and a second registration', async () => {
    const { host } = await startHost(['RestApi', 'JsonRpc'], jsonRpc);
    // The fixture publishes nothing over REST: the adapter added no endpoint or candidate of its own.
    for (const id of ['rest-endpoints', 'rest-endpoint-candidates'])
      expect(host.engine.catalog(id)!.entries()).toEqual([]);
    const misspelled = createEngineBuilder({
      configuration: { Engine: { JsonRpc: { Pth: '/x' } } },
      environment: {},
      logger: createMemoryLogger(),
    });
    addJsonRpcTransport(misspelled);
    await expect(misspelled.build().start()).rejects.toThrow(/Engine:JsonRpc:Pth.*Path/);
    await expect(
      startHost(['JsonRpc'], (builder) => {
        addJsonRpcTransport(builder);
        addJsonRpcTransport(builder);
      }),
    ).rejects.toMatchObject({ code: 'ALREADY_REGISTERED' });
  });
});
