import { problemDetailsSchema } from '@corekit/abstractions';
import { z } from 'zod';
import { closeTestHosts, startTestHost } from './test-support/test-host';

afterEach(closeTestHosts);

function expectProblem(
  response: { status: number; headers: Headers; body: any },
  status: number,
  code: string,
) {
  expect([response.status, response.body?.code]).toEqual([status, code]);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(problemDetailsSchema.safeParse(response.body).success).toBe(true);
  expect(response.body.type).toBe(`urn:corekit:problem:${code.toLowerCase().replace(/_/g, '-')}`);
  expect(response.body.status).toBe(status);
}

describe('problem details (RFC 9457) for everything the routes do not answer', () => {
  it('an unknown route answers 404 ROUTE_NOT_FOUND naming the route', async () => {
    const test = await startTestHost();
    for (const path of ['/nothing-here', '/engine/nothing-here', '/health/sideways']) {
      const response = await test.request(path);
      expectProblem(response, 404, 'ROUTE_NOT_FOUND');
      expect(response.body.instance).toBe(path);
      expect(response.body.detail).toContain(path);
    }
  });

  it('a known route with the wrong method answers 405 METHOD_NOT_ALLOWED with an Allow header', async () => {
    const test = await startTestHost();
    const response = await test.request('/engine/status', { method: 'DELETE' });
    expectProblem(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('a malformed JSON body answers 400 MALFORMED_JSON', async () => {
    const test = await startTestHost();
    const response = await test.request('/engine/status', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"half": ',
    });
    expectProblem(response, 400, 'MALFORMED_JSON');
  });

  it('a JSON body in another charset than UTF-8 answers 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const test = await startTestHost();
    const body = JSON.stringify({ note: 'hello' });
    for (const [contentType, sent] of [
      ['application/json; charset=utf-7', body],
      ['application/json; charset=utf-16le', Buffer.from(body, 'utf16le')],
      ['application/json', Buffer.from(body, 'utf16le')],
      ['application/json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')])],
    ] as const) {
      const response = await test.request('/engine/status', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: sent,
      });
      expectProblem(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const utf8 = await test.request('/engine/status', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body,
    });
    expect(utf8.status).toBe(405);
    const empty = await test.request('/engine/status', { method: 'POST' });
    expect(empty.status).toBe(405);
  });

  it('a body over Engine:Web:MaxRequestBodyBytes answers 413 REQUEST_BODY_TOO_LARGE', async () => {
    const test = await startTestHost({ configuration: { Engine: { Web: { MaxRequestBodyBytes: 64 } } } });
    const response = await test.request('/engine/status', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(200) }),
    });
    expectProblem(response, 413, 'REQUEST_BODY_TOO_LARGE');
    expect(response.body.detail).toContain('Engine:Web:MaxRequestBodyBytes');
  });

  it('an unexpected error answers 500 INTERNAL_ERROR without its message or stack, and is logged', async () => {
    const test = await startTestHost();
    test.host.addRoute({
      method: 'get',
      path: '/api/explode',
      summary: 'Fails',
      responses: { 200: { description: 'never' } },
      handler: () => {
        throw new Error('connection string postgres://admin:hunter2@db failed');
      },
    });
    const response = await test.request('/api/explode');
    expectProblem(response, 500, 'INTERNAL_ERROR');
    expect(response.text).not.toContain('hunter2');
    expect(response.text).not.toMatch(/at .*\.ts:\d+/);
    expect(
      test.logger.records.some((record) => record.eventId === 2014 && record.errorCode === 'INTERNAL_ERROR'),
    ).toBe(true);
  });

  it('an async handler that rejects answers 500 too', async () => {
    const test = await startTestHost();
    test.host.app.get('/api/reject', async () => {
      throw new Error('late failure');
    });
    expectProblem(await test.request('/api/reject'), 500, 'INTERNAL_ERROR');
  });
});

describe('host.addRoute', () => {
  const orderSchema = z.object({ sku: z.string().min(1), quantity: z.number().int().positive() });

  it('validates the JSON body with the route schema: 400 REQUEST_BODY_INVALID with one error per issue', async () => {
    const test = await startTestHost();
    test.host.addRoute({
      method: 'post',
      path: '/api/orders',
      summary: 'Place an order',
      requestBody: orderSchema,
      responses: { 201: { description: 'Placed', schema: orderSchema } },
      handler: (request, response) => response.status(201).json(request.body),
    });
    const invalid = await test.request('/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sku: '', quantity: -1 }),
    });
    expectProblem(invalid, 400, 'REQUEST_BODY_INVALID');
    expect(invalid.body.errors.map((error: { path: string }) => error.path).sort()).toEqual([
      'quantity',
      'sku',
    ]);
    const valid = await test.request('/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sku: 'A-1', quantity: 2, ignored: true }),
    });
    expect([valid.status, valid.body]).toEqual([201, { sku: 'A-1', quantity: 2 }]);
  });

  it('refuses a second registration of the same method and path', async () => {
    const test = await startTestHost();
    const route = {
      method: 'get' as const,
      path: '/api/once',
      summary: 'Once',
      responses: {},
      handler: () => undefined,
    };
    test.host.addRoute(route);
    expect(() => test.host.addRoute(route)).toThrow(/already registered/);
  });

  it('a route that requires authorization answers 403 unless the hook allows, and cannot be added without a hook', async () => {
    const test = await startTestHost({ host: { authorize: (request) => request.headers['x-key'] === 'k' } });
    test.host.addRoute({
      method: 'get',
      path: '/api/secret-report',
      summary: 'Guarded',
      requireAuthorization: true,
      responses: { 200: { description: 'ok' } },
      handler: (_request, response) => response.json({ ok: true }),
    });
    expectProblem(await test.request('/api/secret-report'), 403, 'FORBIDDEN');
    expect((await test.request('/api/secret-report', { headers: { 'x-key': 'k' } })).status).toBe(200);
    const open = await startTestHost();
    expect(() =>
      open.host.addRoute({
        method: 'get',
        path: '/x',
        summary: 'x',
        requireAuthorization: true,
        responses: {},
        handler: () => undefined,
      }),
    ).toThrow(/no authorize hook/);
  });
});
