import { request } from 'node:http';
import type { DependencyCheckResult, DependencyHealthContributor } from '@corekit/abstractions';

/**
 * A dependency-health contributor in plain code: GET `url` on a dedicated connection (no keep-alive pool), closed
 * when the check settles or the engine aborts it. 2xx is Healthy (Degraded when the JSON body says
 * `"status":"degraded"`, with its `"reason"` in the description), anything else Unhealthy. `target` (kept as `data.target`, also on a timeout) is the
 * URL's host and path.
 */
export function httpDependency(options: {
  readonly id: string;
  readonly displayName: string;
  readonly required: boolean;
  readonly url: () => string;
  readonly refreshIntervalSeconds?: number;
  readonly timeoutSeconds?: number;
}): DependencyHealthContributor {
  const target = () => {
    const url = new URL(options.url());
    return `${url.host}${url.pathname}`;
  };
  return {
    id: options.id,
    displayName: options.displayName,
    kind: 'Http',
    required: options.required,
    refreshIntervalSeconds: options.refreshIntervalSeconds,
    timeoutSeconds: options.timeoutSeconds ?? 2,
    get target() {
      return target();
    },
    check: (signal) =>
      new Promise<DependencyCheckResult>((resolve) => {
        const url = options.url();
        const outgoing = request(
          url,
          { method: 'GET', agent: false, signal, headers: { accept: 'application/json' } },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk.slice(0, 4096)));
            response.on('end', () => {
              const status = response.statusCode ?? 0;
              const degraded = /"status"\s*:\s*"degraded"/.test(body);
              const reason = degraded ? /"reason"\s*:\s*"([^"]{1,300})"/.exec(body)?.[1] : undefined;
              if (status >= 200 && status < 300) {
                resolve({
                  status: degraded ? 'Degraded' : 'Healthy',
                  description: reason
                    ? `GET ${url} answered ${status} but reports degraded: ${reason}`
                    : `GET ${url} answered ${status}`,
                  data: { statusCode: status, target: target() },
                });
              } else {
                resolve({
                  status: 'Unhealthy',
                  error: {
                    code: 'UNEXPECTED_STATUS',
                    message: `GET ${url} answered ${status}, expected 2xx`,
                  },
                  data: { statusCode: status, target: target() },
                });
              }
            });
          },
        );
        outgoing.on('error', (error: NodeJS.ErrnoException) =>
          resolve({
            status: 'Unhealthy',
            error: { code: error.code ?? 'REQUEST_FAILED', message: `GET ${url} failed: ${error.message}` },
            data: { target: target() },
          }),
        );
        outgoing.end();
      }),
  };
}
