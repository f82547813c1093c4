import type { DependencyCheckResult } from '@corekit/abstractions';

/** A Healthy result; `data` holds small, non-secret facts (server version, cluster status...). */
export function healthy(description?: string, data?: Record<string, unknown>): DependencyCheckResult {
  return {
    status: 'Healthy',
    ...(description === undefined ? {} : { description }),
    ...(data ? { data } : {}),
  };
}

/** A Degraded result: the upstream answers but reports reduced service (a yellow cluster). */
export function degraded(description: string, data?: Record<string, unknown>): DependencyCheckResult {
  return { status: 'Degraded', description, ...(data ? { data } : {}) };
}

/**
 * An Unhealthy result with a stable machine-readable `code` and a message a user can act on. The message
 * is also the description. Never put a secret in either.
 */
export function unhealthy(
  code: string,
  message: string,
  data?: Record<string, unknown>,
): DependencyCheckResult {
  return { status: 'Unhealthy', description: message, error: { code, message }, ...(data ? { data } : {}) };
}
