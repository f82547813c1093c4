import {
  dependencyCheckResultSchema,
  errorCode,
  type DependencyCheckResult,
  type DependencyHealthContributor,
} from '@corekit/abstractions';

/** Slack for timer lateness and event-loop delay added to the longest gap the scheduler can leave (1 s). */
export const schedulingAllowanceMs = 1000;

/**
 * The age (ms since the last completed run) past which a result is stale. A run starts at most one interval
 * after the previous one ended and is abandoned at its timeout, so a working scheduler always completes a
 * run within `interval + timeout` of the previous completion; the allowance absorbs timer and event-loop
 * delay. A check that succeeds within its timeout therefore never goes stale, however slow it is relative to
 * the interval. `staleAfterIntervals` (Engine:Observability:DependencyHealth:StaleAfterIntervals) can only
 * lengthen the threshold.
 */
export function staleAfterMs(intervalMs: number, timeoutMs: number, staleAfterIntervals: number): number {
  return Math.max(intervalMs + timeoutMs + schedulingAllowanceMs, staleAfterIntervals * intervalMs);
}

/**
 * A contributor may declare the secret-free label of its upstream (`host:port/db`). It is not part of the
 * abstractions contract yet; when present it is published as `data.target` even on a run that timed out
 * before the check could return it. Without it, a timed-out run keeps the target of the last result.
 */
export type TargetedContributor = DependencyHealthContributor & { readonly target?: unknown };

const statuses = new Set<unknown>(['Healthy', 'Degraded', 'Unhealthy']);

/**
 * The common case checked by hand, because it runs after every check: a plain result whose fields have the right
 * types. Anything else goes through the zod schema, which also explains what is wrong.
 */
export function isWellFormedResult(value: unknown): value is DependencyCheckResult {
  if (value === null || typeof value !== 'object') return false;
  const { status, description, error, data } = value as Record<string, unknown>;
  if (!statuses.has(status)) return false;
  if (description !== undefined && typeof description !== 'string') return false;
  if (error !== undefined) {
    if (error === null || typeof error !== 'object') return false;
    const { code, message } = error as Record<string, unknown>;
    if (typeof code !== 'string' || typeof message !== 'string') return false;
  }
  if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data))) return false;
  return Object.keys(value).every(
    (key) => key === 'status' || key === 'description' || key === 'error' || key === 'data',
  );
}

/** The result of a run abandoned at its timeout; keeps `data.target` when one is known. */
export function timedOutResult(
  contributor: DependencyHealthContributor,
  timeoutMs: number,
  target: unknown,
): DependencyCheckResult {
  return {
    status: 'Unhealthy',
    description: `${contributor.displayName} did not answer within ${timeoutMs / 1000} s (timed out)`,
    error: {
      code: 'DEPENDENCY_TIMEOUT',
      message: `The check timed out after ${timeoutMs / 1000} s; the connection was abandoned`,
    },
    ...(target !== undefined ? { data: { target } } : {}),
  };
}

/** The result of a check that threw (or rejected): Unhealthy with the error's code and message. */
export function failedResult(
  contributor: DependencyHealthContributor,
  thrown: unknown,
): DependencyCheckResult {
  const error = thrown as Error;
  return {
    status: 'Unhealthy',
    description: `${contributor.displayName} check failed`,
    error: {
      code: errorCode(error, 'DEPENDENCY_CHECK_FAILED'),
      message: String(error?.message ?? error),
    },
  };
}

/** A check's answer, validated; `failed` when it was not a result at all (then Unhealthy, INVALID). */
export function answeredResult(
  contributor: DependencyHealthContributor,
  value: unknown,
): { result: DependencyCheckResult; failed: boolean } {
  const parsed = isWellFormedResult(value)
    ? { success: true as const, data: value }
    : dependencyCheckResultSchema.safeParse(value);
  if (parsed.success) return { result: parsed.data, failed: false };
  return {
    failed: true,
    result: {
      status: 'Unhealthy',
      description: `${contributor.displayName} returned an invalid result`,
      error: {
        code: 'DEPENDENCY_RESULT_INVALID',
        message: parsed.error.issues.map((issue) => issue.message).join('; '),
      },
    },
  };
}
