import https from 'node:https';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';

/** How the SNS client reaches hosts: extra trusted roots, address lookup and port (tests point them at loopback). */
export interface SnsTransport {
  /** Extra trusted root certificates (PEM), added to the system roots for HTTPS and for the chain. */
  readonly ca?: string | readonly string[];
  readonly lookup?: LookupFunction;
  /** Port used for `https:` URLs (default 443). */
  readonly port?: number;
}

/** The outcome of a bounded GET. */
export type BoundedGetResult =
  | { readonly ok: true; readonly status: number; readonly body: Buffer }
  | { readonly ok: false; readonly reason: string };

/** Extra roots as a list. */
export function extraRoots(transport: SnsTransport): string[] {
  const ca = transport.ca;
  return ca === undefined ? [] : typeof ca === 'string' ? [ca] : [...ca];
}

/**
 * One HTTPS GET: no redirect is followed (a 3xx is a failure), at most `maxBytes` read (declared or
 * streamed), the whole exchange within `timeoutMs`, TLS verified against the system roots plus `ca`.
 */
export function boundedGet(
  url: URL,
  transport: SnsTransport,
  limits: { readonly timeoutMs: number; readonly maxBytes: number; readonly signal?: AbortSignal },
): Promise<BoundedGetResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: BoundedGetResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = https.get(
      {
        host: url.hostname,
        servername: url.hostname,
        port: transport.port ?? 443,
        path: `${url.pathname}${url.search}`,
        ca: [...tls.rootCertificates, ...extraRoots(transport)],
        ...(transport.lookup ? { lookup: transport.lookup } : {}),
        headers: { accept: '*/*', 'user-agent': 'corekit-callback-ses' },
        ...(limits.signal ? { signal: limits.signal } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) return finish({ ok: false, reason: 'redirect-refused' });
        if (Number(response.headers['content-length'] ?? 0) > limits.maxBytes)
          return finish({ ok: false, reason: 'body-too-large' });
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) finish({ ok: false, reason: 'body-too-large' });
          else chunks.push(chunk);
        });
        response.on('end', () => finish({ ok: true, status, body: Buffer.concat(chunks) }));
        response.on('error', () => finish({ ok: false, reason: 'transport-error' }));
      },
    );
    request.on('error', (error: Error & { code?: string }) =>
      finish({
        ok: false,
        reason: /CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS/.test(error.code ?? '') ? 'tls-error' : 'transport-error',
      }),
    );
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }), limits.timeoutMs);
  });
}
