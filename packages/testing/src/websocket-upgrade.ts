import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';

/** How a server answered a WebSocket upgrade request: 101, or the refusal with its headers and body. */
export interface UpgradeAnswer {
  readonly status: number;
  /** Lower-cased response header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The refusal's body (empty for 101). */
  readonly body: string;
}

/**
 * Sends one WebSocket upgrade request (`ws://` or `http://` URL) and reports the answer: 101 (the socket is
 * closed at once), or the status, headers and body of a refusal. No WebSocket client is needed, so a test can
 * compare an upgrade's refusal with the problem details of a plain request.
 */
export function webSocketUpgradeAnswer(
  url: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<UpgradeAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url.replace(/^ws/, 'http'), {
      headers: {
        ...headers,
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      },
    });
    request.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: '' });
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}
