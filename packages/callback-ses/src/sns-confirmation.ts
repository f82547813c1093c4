import { boundedGet, type SnsTransport } from './sns-https';

/**
 * Confirms an SNS subscription by fetching its SubscribeURL. Replaceable: a host passes its own (a proxy, a
 * queue for a human to approve). The URL given was validated (HTTPS, SNS host, ConfirmSubscription action,
 * the verified envelope's topic and token).
 */
export interface SnsConfirmationClient {
  confirm(
    url: URL,
    options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
  ): Promise<{ readonly confirmed: boolean; readonly reason?: string }>;
}

/** The default client: one bounded GET (no redirect, 64 KiB, the timeout), confirmed on a 200. */
export function httpsConfirmationClient(transport: SnsTransport = {}): SnsConfirmationClient {
  return {
    async confirm(url, options) {
      const answer = await boundedGet(url, transport, {
        timeoutMs: options.timeoutMs,
        maxBytes: 65_536,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (!answer.ok) return { confirmed: false, reason: answer.reason };
      return answer.status === 200
        ? { confirmed: true }
        : { confirmed: false, reason: `http-status-${answer.status}` };
    },
  };
}
