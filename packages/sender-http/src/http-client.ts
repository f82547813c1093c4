import http from 'node:http';
import https from 'node:https';

/** One HTTP request of the sender. */
export interface HttpSenderRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signal: AbortSignal;
  /** Bytes of the response body to read (0: drain without keeping). */
  readonly maxBodyBytes: number;
}

export interface HttpSenderResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** At most `maxBodyBytes` of the body, decoded as UTF-8. */
  readonly body: string;
}

/** The replaceable transport of the HTTP sender. Throws on transport errors and aborts. */
export type HttpSenderClient = (request: HttpSenderRequest) => Promise<HttpSenderResponse>;

/** The default client: `node:http`/`node:https`, no redirects followed; `ca` adds trusted roots (tests). */
export function nodeHttpClient(options: { ca?: string } = {}): HttpSenderClient {
  return (request) =>
    new Promise((resolve, reject) => {
      const url = new URL(request.url);
      const transport = url.protocol === 'https:' ? https : http;
      const outgoing = transport.request(
        url,
        {
          method: request.method,
          headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
          signal: request.signal,
          ...(options.ca && url.protocol === 'https:' ? { ca: options.ca } : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < request.maxBodyBytes) chunks.push(chunk.subarray(0, request.maxBodyBytes - size));
            size += chunk.length;
          });
          response.on('error', reject);
          response.on('end', () => {
            const headers: Record<string, string | undefined> = {};
            for (const [name, value] of Object.entries(response.headers))
              headers[name] = Array.isArray(value) ? value.join(', ') : value;
            resolve({
              status: response.statusCode ?? 0,
              headers,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
}
