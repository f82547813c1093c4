import { createServer, request, type Server } from 'node:http';

export interface SubPathProxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A reverse proxy that serves `target` under `prefix` (`/ops`): `/ops/engine/console` is `/engine/console` on
 * the host; anything outside the prefix answers 404. Streams both ways (server-sent events pass through).
 */
export async function startSubPathProxy(target: string, prefix: string, port = 0): Promise<SubPathProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    if (path !== prefix && !path.startsWith(`${prefix}/`)) {
      outgoing.writeHead(404, { 'content-type': 'text/plain' }).end('outside the proxied prefix');
      return;
    }
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: path.slice(prefix.length) || '/',
        headers: { ...incoming.headers, host: upstream.host, 'x-forwarded-prefix': prefix },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    outgoing.on('close', () => forwarded.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}${prefix}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
