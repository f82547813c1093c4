import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { partialBodyRequest } from '@corekit/testing/partial-body-request';
import { readBoundedBody } from './read-bounded-body';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await readBoundedBody(request, 8);
    response.statusCode = body === 'too-large' ? 413 : 200;
    response.end(body === 'too-large' ? 'refused' : `got:${body}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Posts `chunks` one by one (chunked encoding unless `length` is declared). */
function post(chunks: string[], length?: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = length === undefined ? {} : { 'content-length': String(length) };
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, text }));
    });
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

describe('readBoundedBody', () => {
  it('reads a body up to the limit as UTF-8 text', async () => {
    expect(await post(['ké', 'y'])).toEqual({ status: 200, text: 'got:ké' + 'y' });
    expect(await post(['12345678'], 8)).toEqual({ status: 200, text: 'got:12345678' });
    expect(await post([])).toEqual({ status: 200, text: 'got:' });
  });

  it('refuses a declared Content-Length over the limit and can still answer', async () => {
    expect(await post(['123456789'], 9)).toEqual({ status: 413, text: 'refused' });
  });

  it('refuses a chunked body once more than the limit arrived, draining the rest', async () => {
    expect(await post(['12345', '67890', 'x'.repeat(100_000)])).toEqual({ status: 413, text: 'refused' });
  });

  it('answers 413 to a declared 5 MB body after 16 KiB arrived, without waiting for the rest', async () => {
    const answer = await partialBodyRequest({
      port,
      path: '/',
      send: Buffer.alloc(16_384, 97),
      declare: 5 * 1024 * 1024,
    });
    expect(answer).toMatchObject({ status: 413, body: 'refused' });
  });

  it('answers 413 as soon as a chunked body passes the limit, while the client still holds the rest', async () => {
    const answer = await partialBodyRequest({
      port,
      path: '/',
      send: Buffer.alloc(64, 97),
      declare: 'chunked',
    });
    expect(answer).toMatchObject({ status: 413, body: 'refused' });
  });
});
