import http from 'node:http';
import https from 'node:https';
import { classifyHttpStatus, classifyRequestError, type NotifierOutcome } from './notifier-outcome';

/** An answer of a notifier's service: status, the headers notifiers read, the start of the body. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** At most 16 KiB of the body, as text. */
  readonly body: string;
}

const maxBodyBytes = 16 * 1024;

/**
 * Sends one request on a dedicated connection (no keep-alive pool, nothing left open after it settles) and
 * resolves with the answer; rejects on a network error or when `signal` aborts (the socket is destroyed then).
 * Redirects are not followed.
 */
export function sendHttpRequest(
  url: string,
  options: {
    readonly method?: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string;
    readonly signal: AbortSignal;
  },
): Promise<HttpAnswer> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
  return new Promise<HttpAnswer>((resolve, reject) => {
    const outgoing = client.request(
      target,
      {
        method: options.method ?? 'POST',
        agent: false,
        signal: options.signal,
        headers: {
          ...options.headers,
          ...(body ? { 'content-length': String(body.length) } : {}),
          connection: 'close',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < maxBodyBytes) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).subarray(0, maxBodyBytes).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * POSTs `payload` as JSON and classifies the answer (`classifyHttpStatus`) or the failure
 * (`classifyRequestError`). The usual body of a notifier's `send`.
 */
export async function postJson(
  url: string,
  payload: unknown,
  options: {
    readonly signal: AbortSignal;
    readonly headers?: Readonly<Record<string, string>>;
    readonly accepted?: readonly number[];
    /** The exact body to send, when the caller already serialized it (a signature covers these bytes). */
    readonly body?: string;
  },
): Promise<NotifierOutcome> {
  try {
    const answer = await sendHttpRequest(url, {
      method: 'POST',
      signal: options.signal,
      headers: { 'content-type': 'application/json', ...options.headers },
      body: options.body ?? JSON.stringify(payload),
    });
    const retryAfter = answer.headers['retry-after'];
    return classifyHttpStatus(
      answer.status,
      Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      options.accepted,
    );
  } catch (error) {
    return classifyRequestError(error, options.signal);
  }
}
