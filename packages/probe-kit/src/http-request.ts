import http from 'node:http';
import https from 'node:https';
import { CoreError } from '@corekit/abstractions';
import { abortError } from './abortable';
import type { ProbeTlsOptions } from './connect-tcp';
import { basicAuthorization } from './authorization-headers';

export interface HttpRequestOptions {
  readonly url: string;
  /** Default GET. */
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Aborting destroys the request and its socket at once. */
  readonly signal: AbortSignal;
  readonly tls?: ProbeTlsOptions;
  /** Largest body read before failing with RESPONSE_TOO_LARGE (default 1 MiB). */
  readonly maxBodyBytes?: number;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * One HTTP(S) request on a dedicated connection (`agent: false`, `Connection: close`); the socket is
 * destroyed once the body is read, on error and on abort, so nothing stays open after the call settles.
 * Credentials in the URL are moved to a basic Authorization header (unless one is given). Rejects with the
 * system error (ECONNREFUSED...), ABORTED, or RESPONSE_TOO_LARGE.
 */
export function httpRequest(options: HttpRequestOptions): Promise<HttpResponse> {
  const { signal } = options;
  if (signal.aborted) return Promise.reject(abortError(signal));
  const url = new URL(options.url);
  const headers: Record<string, string> = { connection: 'close', ...lowerCaseKeys(options.headers ?? {}) };
  if ((url.username || url.password) && headers.authorization === undefined) {
    headers.authorization = basicAuthorization(
      decodeURIComponent(url.username),
      decodeURIComponent(url.password),
    );
  }
  url.username = '';
  url.password = '';
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const transport = url.protocol === 'https:' ? https : http;

  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    const finish = (error: unknown, response?: HttpResponse) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      request.destroy();
      if (error) reject(error);
      else resolve(response!);
    };
    const onAbort = () => finish(abortError(signal));
    const request = transport.request(url, {
      method: options.method ?? 'GET',
      headers,
      agent: false,
      ...(url.protocol === 'https:' && options.tls
        ? {
            servername: options.tls.servername,
            rejectUnauthorized: options.tls.rejectUnauthorized ?? true,
            ca: options.tls.ca,
          }
        : {}),
    });
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => finish(error));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBodyBytes) {
          finish(
            new CoreError(
              'RESPONSE_TOO_LARGE',
              `The upstream answered with a body over ${maxBodyBytes} bytes; point the endpoint at a health route.`,
            ),
          );
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', (error) => finish(error));
      response.on('aborted', () =>
        finish(
          Object.assign(new Error('The upstream closed the connection before the response was complete.'), {
            code: 'ECONNRESET',
          }),
        ),
      );
      response.on('end', () =>
        finish(null, {
          status: response.statusCode ?? 0,
          headers: { ...response.headers },
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    request.end(options.body);
  });
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value;
  return result;
}
