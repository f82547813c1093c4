import http from 'node:http';
import type net from 'node:net';
import { httpRequest } from './http-request';

interface Seen {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

async function server(answer: (response: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const sockets = new Set<net.Socket>();
  const instance = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      answer(response);
    });
  });
  instance.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => instance.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(instance.address() as net.AddressInfo).port}`,
    seen,
    sockets,
    close: () => {
      instance.closeAllConnections();
      return new Promise<void>((resolve) => instance.close(() => resolve()));
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 100 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe('httpRequest', () => {
  it('sends method, headers, body and URL credentials as basic auth; returns status, headers and body; leaves no connection open', async () => {
    const upstream = await server((response) =>
      response.writeHead(201, { 'x-answer': 'yes' }).end('created'),
    );
    try {
      const result = await httpRequest({
        url: `http://probe:pa%24s@${upstream.url.slice(7)}/items?x=1`,
        method: 'POST',
        headers: { 'X-Probe': 'on' },
        body: '{}',
        signal: new AbortController().signal,
      });
      expect(result).toMatchObject({ status: 201, body: 'created', headers: { 'x-answer': 'yes' } });
      expect(upstream.seen[0]).toMatchObject({ method: 'POST', url: '/items?x=1', body: '{}' });
      expect(upstream.seen[0].headers).toMatchObject({
        'x-probe': 'on',
        connection: 'close',
        authorization: `Basic ${Buffer.from('probe:pa$s').toString('base64')}`,
      });
      await until(() => upstream.sockets.size === 0);
    } finally {
      await upstream.close();
    }
  });

  it('rejects with ABORTED and closes the connection when the signal aborts while the upstream never answers', async () => {
    const upstream = await server(() => undefined);
    const controller = new AbortController();
    try {
      const pending = httpRequest({ url: upstream.url, signal: controller.signal });
      await until(() => upstream.seen.length === 1);
      controller.abort();
      await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
      await until(() => upstream.sockets.size === 0);
    } finally {
      await upstream.close();
    }
  });

  it('fails with RESPONSE_TOO_LARGE past maxBodyBytes', async () => {
    const upstream = await server((response) => response.end('x'.repeat(5000)));
    try {
      await expect(
        httpRequest({ url: upstream.url, signal: new AbortController().signal, maxBodyBytes: 100 }),
      ).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    } finally {
      await upstream.close();
    }
  });
});
