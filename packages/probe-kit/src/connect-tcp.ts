import net from 'node:net';
import tls from 'node:tls';
import { abortError } from './abortable';

/** TLS settings shared by the TCP and HTTP helpers. */
export interface ProbeTlsOptions {
  /** Server name for SNI and certificate checks; defaults to the host when it is a name. */
  readonly servername?: string;
  /** Verify the server certificate (default true). Turn off only for test servers. */
  readonly rejectUnauthorized?: boolean;
  /** Extra trusted CA certificates (PEM). */
  readonly ca?: string | Buffer | Array<string | Buffer>;
}

export interface ConnectTcpOptions {
  readonly host: string;
  readonly port: number;
  /** Aborting destroys the socket, during the connect and afterwards, until it closes. */
  readonly signal: AbortSignal;
  /** When set, the connection is TLS from the first byte. */
  readonly tls?: ProbeTlsOptions;
}

/**
 * Opens one dedicated TCP (or TLS) connection. Resolves once connected (after the TLS handshake), rejects
 * with the system error (its `code` kept: ECONNREFUSED, ENOTFOUND...) or with code ABORTED when the signal
 * fires. The socket is destroyed whenever the signal aborts, so a probe only needs `socket.destroy()` in
 * its `finally`.
 */
export function connectTcp(options: ConnectTcpOptions): Promise<net.Socket | tls.TLSSocket> {
  const { host, port, signal } = options;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const socket = options.tls
      ? tls.connect({
          host,
          port,
          servername: options.tls.servername ?? (net.isIP(host) ? undefined : host),
          rejectUnauthorized: options.tls.rejectUnauthorized ?? true,
          ca: options.tls.ca,
        })
      : net.connect({ host, port });
    socket.setNoDelay(true);
    let settled = false;
    const onAbort = () => {
      socket.destroy();
      if (!settled) {
        settled = true;
        reject(abortError(signal));
      }
    };
    const onError = (error: Error) => {
      socket.destroy();
      if (!settled) {
        settled = true;
        reject(error);
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('close', () => {
      signal.removeEventListener('abort', onAbort);
      if (!settled) {
        settled = true;
        reject(
          Object.assign(new Error(`The connection to ${host}:${port} closed before it was established.`), {
            code: 'ECONNRESET',
          }),
        );
      }
    });
    socket.on('error', onError);
    socket.once(options.tls ? 'secureConnect' : 'connect', () => {
      if (settled) return;
      settled = true;
      // keep one error listener so a late error never crashes the process; readers add their own
      resolve(socket);
    });
  });
}

/** `host:port`, with brackets around an IPv6 literal. */
export function formatHostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
