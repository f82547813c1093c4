import { MailService } from '@sendgrid/mail';
import type { SendGridClient, SendGridTransportSettings } from './sendgrid-transport';

/** The default client: a private `@sendgrid/mail` MailService (not the shared singleton) on BaseUrl. */
export function sendGridMailClient(
  settings: Pick<SendGridTransportSettings, 'ApiKey' | 'BaseUrl'>,
  timeoutMs = 30_000,
): SendGridClient {
  const service = new MailService();
  service.setApiKey(settings.ApiKey);
  // setApiKey resets the base URL to the region's; the configured one (regional or a local fake) wins.
  const inner = (service as unknown as { client: { setDefaultRequest(key: string, value: unknown): void } })
    .client;
  inner.setDefaultRequest('baseUrl', settings.BaseUrl.replace(/\/+$/, ''));
  inner.setDefaultRequest('timeout', timeoutMs);
  return { send: (message) => service.send(message as never) as never };
}
