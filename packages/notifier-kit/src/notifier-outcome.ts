/**
 * What one delivery attempt came to. `delivered`: the service accepted the notification. `retryable`: try again
 * later (a 5xx, 408, 429, a timeout, a refused connection), after `retryAfterMs` when the service said so.
 * `terminal`: trying again cannot help (a 4xx: wrong URL, revoked key, a payload the service refuses).
 * `reason` is safe to store and show: it never holds a URL, a header or a secret.
 */
export type NotifierOutcome =
  | { readonly outcome: 'delivered'; readonly responseCode: number | null }
  | {
      readonly outcome: 'retryable';
      readonly responseCode: number | null;
      readonly reason: string;
      readonly retryAfterMs: number | null;
    }
  | { readonly outcome: 'terminal'; readonly responseCode: number | null; readonly reason: string };

export const notifierOutcome = {
  delivered(responseCode: number | null): NotifierOutcome {
    return { outcome: 'delivered', responseCode };
  },
  retryable(
    reason: string,
    responseCode: number | null = null,
    retryAfterMs: number | null = null,
  ): NotifierOutcome {
    return { outcome: 'retryable', responseCode, reason, retryAfterMs };
  },
  terminal(reason: string, responseCode: number | null = null): NotifierOutcome {
    return { outcome: 'terminal', responseCode, reason };
  },
};

/** Statuses that say "later" rather than "never": request timeout, too early, too many requests. */
const retryableClientStatuses = new Set([408, 425, 429]);

/** The longest wait a `Retry-After` header is taken at (a day); a later date is clamped. */
const maxRetryAfterMs = 24 * 60 * 60 * 1000;

/**
 * Reads a `Retry-After` header: delay-seconds (`120`) or an HTTP date. Null when absent or unreadable; a date in
 * the past is 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, maxRetryAfterMs);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, date - now), maxRetryAfterMs);
}

/**
 * Classifies an HTTP answer: an accepted status (any 2xx when `accepted` is empty) is delivered; 408, 425, 429 and
 * 5xx are retryable (with the `Retry-After` delay when given); anything else (other 4xx, a 3xx: redirects are not
 * followed, a moved webhook is a configuration error) is terminal.
 */
export function classifyHttpStatus(
  status: number,
  retryAfter?: string | null,
  accepted: readonly number[] = [],
): NotifierOutcome {
  const ok = accepted.length > 0 ? accepted.includes(status) : status >= 200 && status < 300;
  if (ok) return notifierOutcome.delivered(status);
  if (status >= 500 || retryableClientStatuses.has(status)) {
    return notifierOutcome.retryable(`the service answered ${status}`, status, parseRetryAfter(retryAfter));
  }
  return notifierOutcome.terminal(`the service answered ${status}`, status);
}

/**
 * Classifies a failure before any answer: a timeout (the signal aborted) or a network error is retryable. Only
 * the error's code is kept (`ECONNREFUSED`), never its message: messages of HTTP clients carry the URL, and a
 * Slack or Teams webhook URL is itself the secret.
 */
export function classifyRequestError(error: unknown, signal?: AbortSignal): NotifierOutcome {
  if (signal?.aborted) return notifierOutcome.retryable('timeout: the service did not answer in time');
  const code = (error as { code?: unknown } | null)?.code;
  const safeCode = typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? code : 'REQUEST_FAILED';
  return notifierOutcome.retryable(`request failed: ${safeCode}`);
}
