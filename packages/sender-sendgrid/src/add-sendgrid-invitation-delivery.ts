import type { EngineBuilder } from '@corekit/abstractions';
import { addInvitationSender, endpointHost, senderEventIds } from '@corekit/sender-kit';
import { MailService } from '@sendgrid/mail';
import {
  sendGridSenderOptionsSchema,
  type SendGridSenderOptions,
  type SendGridSenderOptionsInput,
} from './sendgrid-options';
import { createSendGridSend, type SendGridClient } from './sendgrid-sender';
import type { SendGridTransportSettings } from './sendgrid-transport';

/** Event ids of the SEND provider delivery (runtime-operations 6: 4560-4561; 4562-4565 are its callbacks'). */
export const sendGridSenderEventIds = { registered: 4560, completed: 4561 } as const;

/** Code-only seams: a replacement client; the default client's request timeout (default 30000 ms). */
export interface SendGridInvitationDeliveryExtensions {
  readonly client?: SendGridClient;
  readonly timeoutMs?: number;
}

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

/**
 * Registers the SendGrid sender (`Engine:MultiTenancy:Governance:SendGridInvitationDelivery`) after
 * `addTenantGovernanceDelivery`. A 202 is an accepted hand-off; delivery statuses come from the event
 * webhook (a separate callback package), matched by the custom args sent here.
 */
export function addSendGridInvitationDelivery(
  builder: EngineBuilder,
  options?: SendGridSenderOptionsInput,
  extensions: SendGridInvitationDeliveryExtensions = {},
): SendGridSenderOptions {
  return addInvitationSender(
    builder,
    {
      packageName: '@corekit/sender-sendgrid',
      section: 'SendGridInvitationDelivery',
      schema: sendGridSenderOptionsSchema,
      eventIds: senderEventIds(
        'Tenant governance, JSON mail-send email provider delivery',
        'sendgrid',
        sendGridSenderEventIds,
      ),
      describe: (settings) =>
        `endpoint host ${endpointHost(settings.BaseUrl)}, sandbox ${settings.EnableSandboxMode}, categories ${settings.Categories.length}`,
      create: (settings) =>
        createSendGridSend(settings, extensions.client ?? sendGridMailClient(settings, extensions.timeoutMs)),
    },
    options,
  ).settings;
}
