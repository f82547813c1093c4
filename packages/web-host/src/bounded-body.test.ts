import { gzipSync } from 'node:zlib';
import { defineOperation, type EngineBuilder } from '@corekit/abstractions';
import { partialBodyRequest } from '@corekit/testing/partial-body-request';
import { z } from 'zod';
import { closeTestHosts, startTestHost, type TestHost } from './test-support/test-host';

afterEach(closeTestHosts);

/** A raw-body operation (like the provider callbacks) and a JSON one (like the governance commands), each with its own limit. */
function operations(builder: EngineBuilder) {
  builder.addOperation(
    defineOperation({
      id: 'bodies.raw',
      method: 'POST',
      path: '/engine/bodies/raw',
      summary: 'Counts raw bytes',
      rawBody: true,
      maxBodyBytes: 1024,
      authorization: { mode: 'anonymous' },
      result: z.object({ bytes: z.number().int() }),
      handler: async (_input, context) => ({ bytes: context.rawBody?.length ?? -1 }),
    }),
  );
  builder.addOperation(
    defineOperation({
      id: 'bodies.json',
      method: 'POST',
      path: '/engine/bodies/json',
      summary: 'Echoes a JSON body',
      maxBodyBytes: 1024,
      authorization: { mode: 'anonymous' },
      body: z.object({ text: z.string() }),
      result: z.object({ length: z.number().int() }),
      handler: async ({ body }) => ({ length: body.text.length }),
    }),
  );
}

async function host(): Promise<TestHost & { port: number }> {
  const test = await startTestHost({
    configuration: { Engine: { Web: { MaxRequestBodyBytes: 2048 } } },
    setup: operations,
  });
  return { ...test, port: Number(new URL(test.base).port) };
}

describe('request bodies are bounded before they are read', () => {
  it.each([
    ['a raw-body operation', '/engine/bodies/raw', 'application/octet-stream'],
    ['a JSON operation', '/engine/bodies/json', 'application/json'],
    ['a route without its own parser (Engine:Web:MaxRequestBodyBytes)', '/engine/status', 'application/json'],
  ])(
    '%s answers 413 to a declared 5 MB body after 16 KiB, the socket held open, and closes the connection',
    async (_name, path, contentType) => {
      const { port } = await host();
      const answer = await partialBodyRequest({
        port,
        path,
        headers: { 'content-type': contentType },
        send: Buffer.alloc(16_384, 32),
        declare: 5 * 1024 * 1024,
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'REQUEST_BODY_TOO_LARGE' });
      expect(answer.headers.connection).toBe('close');
    },
  );

  it.each([
    ['a raw-body operation', '/engine/bodies/raw', 'application/octet-stream'],
    ['a JSON operation', '/engine/bodies/json', 'application/json'],
    ['a route without its own parser', '/engine/status', 'application/json'],
  ])('%s answers 413 as soon as a chunked body passes the limit', async (_name, path, contentType) => {
    const { port } = await host();
    const answer = await partialBodyRequest({
      port,
      path,
      headers: { 'content-type': contentType },
      send: Buffer.alloc(4096, 32),
      declare: 'chunked',
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'REQUEST_BODY_TOO_LARGE' });
  });

  it('bodies within the limit are still read whole, declared or chunked, raw or JSON', async () => {
    const test = await host();
    const chunked = (text: string) =>
      new ReadableStream({
        start(controller) {
          for (const part of [text.slice(0, 5), text.slice(5)])
            controller.enqueue(new TextEncoder().encode(part));
          controller.close();
        },
      });
    const raw = await test.request('/engine/bodies/raw', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: chunked('x'.repeat(1024)),
      duplex: 'half',
    } as RequestInit);
    expect([raw.status, raw.body]).toEqual([200, { bytes: 1024 }]);
    const json = await test.request('/engine/bodies/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunked(JSON.stringify({ text: 'hello world' })),
      duplex: 'half',
    } as RequestInit);
    expect([json.status, json.body]).toEqual([200, { length: 11 }]);
    const declared = await test.request('/engine/bodies/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'declared' }),
    });
    expect([declared.status, declared.body]).toEqual([200, { length: 8 }]);
    const malformed = await test.request('/engine/bodies/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text": ',
    });
    expect([malformed.status, malformed.body?.code]).toEqual([400, 'MALFORMED_JSON']);
    // A gzip body is inflated by the parser as before; inflated past the limit it is still a 413.
    const gzipped = await test.request('/engine/bodies/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ text: 'zipped' })),
    });
    expect([gzipped.status, gzipped.body]).toEqual([200, { length: 6 }]);
    const bomb = await test.request('/engine/bodies/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ text: ' '.repeat(100_000) })),
    });
    expect([bomb.status, bomb.body?.code]).toEqual([413, 'REQUEST_BODY_TOO_LARGE']);
  });
});
