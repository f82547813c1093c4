import Mailgun from 'mailgun.js';
import type { MailgunClient, MailgunTransportSettings } from './mailgun-transport';

/** The default client: `mailgun.js` with basic auth `api:<ApiKey>` on BaseUrl (Node's global FormData). */
export function mailgunJsClient(
  settings: Pick<MailgunTransportSettings, 'ApiKey' | 'BaseUrl'>,
  timeoutMs = 30_000,
): MailgunClient {
  const client = new Mailgun(FormData).client({
    username: 'api',
    key: settings.ApiKey,
    url: settings.BaseUrl.replace(/\/+$/, ''),
    timeout: timeoutMs,
  });
  return {
    async create(domain, data) {
      try {
        return (await client.messages.create(domain, data as never)) as never;
      } catch (error) {
        throw transportErrorOf(error) ?? error;
      }
    },
  };
}

const networkFailure =
  /\b(ECONN\w+|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|socket hang up|timeout of \d+ms exceeded)\b/;

/**
 * mailgun.js reports a network failure as an API error with status 400 and the socket error in `details`;
 * this turns it back into a transport error (no status), so it is not mistaken for a provider refusal.
 */
function transportErrorOf(error: unknown): Error | undefined {
  const details = (error as { details?: unknown } | null)?.details;
  if (typeof details !== 'string' || !networkFailure.test(details)) return undefined;
  const failure = new Error('Mailgun request failed before an answer');
  failure.name = /timeout|ETIMEDOUT/.test(details) ? 'TimeoutError' : 'TransportError';
  return failure;
}
