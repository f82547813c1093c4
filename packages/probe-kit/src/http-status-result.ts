import type { DependencyCheckResult } from '@corekit/abstractions';
import { unhealthy } from './probe-results';

/** The first `length` characters of a body on one line, for error messages (secrets are scrubbed later). */
export function bodySnippet(body: string, length = 200): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length)}…` : line;
}

/**
 * The Unhealthy result for an HTTP answer that is not a success: 401/403 become AUTHENTICATION_FAILED
 * naming the credential fields to check, anything else UNEXPECTED_STATUS with a body snippet.
 * `request` is a safe label (`GET http://es:9200/_cluster/health`).
 */
export function httpFailure(
  request: string,
  status: number,
  body: string,
  credentialFields: string,
): DependencyCheckResult {
  const snippet = bodySnippet(body);
  if (status === 401 || status === 403) {
    return unhealthy(
      'AUTHENTICATION_FAILED',
      `${request} answered ${status}${snippet ? ` (${snippet})` : ''}: the upstream refused the credentials. Check ${credentialFields}.`,
      { statusCode: status },
    );
  }
  return unhealthy('UNEXPECTED_STATUS', `${request} answered ${status}${snippet ? `: ${snippet}` : ''}.`, {
    statusCode: status,
  });
}

/** Parses a JSON body, or returns undefined when it is not JSON. */
export function parseJsonBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
