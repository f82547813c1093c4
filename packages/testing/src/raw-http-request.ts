import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

/** The answer to a raw request: status, headers (names lower-cased) and the body as text. */
export interface RawHttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/**
 * One request to `base` (`http://host:port`) with its path sent exactly as written, through node:http: fetch's
 * URL parser may normalise a path (a doubled slash, `..`), which is what such a test is about. Sends `body`
 * when given.
 */
export function rawHttpRequest(
  base: string,
  options: {
    readonly method: string;
    readonly path: string;
    readonly headers?: OutgoingHttpHeaders;
    readonly body?: string;
  },
): Promise<RawHttpAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { hostname, port, method: options.method, path: options.path, headers: options.headers ?? {} },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
