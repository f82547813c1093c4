import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';

/** One request as a fake HTTP server received it. */
export interface RecordedHttpRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: Record<string, string>;
  /** Header names lower-cased. */
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** The body as received (binary formats such as protobuf; still compressed when Content-Encoding says so). */
  readonly bytes: Buffer;
}

/** What a fake handler answers. A string or object body is sent as is / as JSON. */
export interface FakeHttpResponse {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string | Record<string, unknown> | unknown[];
}

export type FakeHttpHandler = (request: RecordedHttpRequest) => FakeHttpResponse | Promise<FakeHttpResponse>;

export interface FakeHttpServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Every request received, oldest first. */
  readonly requests: RecordedHttpRequest[];
  /** Connections currently open (a probe must leave none after a run). */
  readonly openConnections: number;
  close(): Promise<void>;
}

/**
 * A small HTTP/1.1 server on 127.0.0.1 for the fakes of HTTP-speaking products (Consul, Elasticsearch,
 * OpenSearch). It records each request and answers with `handler`; a handler error answers 500.
 */
export async function startHttpFakeServer(
  handler: FakeHttpHandler,
  options: {
    /** Serve HTTPS with this leaf certificate and key (PEM) instead of plain HTTP; `url` says `https://`. */
    readonly tls?: { readonly cert: string; readonly key: string };
  } = {},
): Promise<FakeHttpServer> {
  const requests: RecordedHttpRequest[] = [];
  const sockets = new Set<net.Socket>();
  const listener: http.RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const recorded: RecordedHttpRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: { ...request.headers },
        body: Buffer.concat(chunks).toString('utf8'),
        bytes: Buffer.concat(chunks),
      };
      requests.push(recorded);
      Promise.resolve()
        .then(() => handler(recorded))
        .then(
          (answer) => {
            const isText = typeof answer.body === 'string';
            const body =
              answer.body === undefined ? '' : isText ? (answer.body as string) : JSON.stringify(answer.body);
            const headers: Record<string, string> = {
              ...(answer.body !== undefined && !isText ? { 'content-type': 'application/json' } : {}),
              ...answer.headers,
            };
            response.writeHead(answer.status, headers);
            response.end(request.method === 'HEAD' ? undefined : body);
          },
          (error: unknown) => {
            response.writeHead(500, { 'content-type': 'text/plain' });
            response.end(String((error as Error)?.message ?? error));
          },
        );
    });
  };
  const server = options.tls ? https.createServer(options.tls, listener) : http.createServer(listener);
  server.on(options.tls ? 'secureConnection' : 'connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    get openConnections() {
      return sockets.size;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Basic credentials from an Authorization header, or undefined. */
export function basicCredentialsOf(
  request: RecordedHttpRequest,
): { username: string; password: string } | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  return separator < 0
    ? undefined
    : { username: decoded.slice(0, separator), password: decoded.slice(separator + 1) };
}
