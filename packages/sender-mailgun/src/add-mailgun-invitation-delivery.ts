import type { EngineBuilder } from '@corekit/abstractions';
import { addInvitationSender, endpointHost, senderEventIds } from '@corekit/sender-kit';
import Mailgun from 'mailgun.js';
import {
  mailgunSenderOptionsSchema,
  type MailgunSenderOptions,
  type MailgunSenderOptionsInput,
} from './mailgun-options';
import { createMailgunSend, type MailgunClient } from './mailgun-sender';
import type { MailgunTransportSettings } from './mailgun-transport';

/** Event ids of the MSG provider delivery (runtime-operations 6: 4566-4567; 4568-4571 are its callbacks'). */
export const mailgunSenderEventIds = { registered: 4566, completed: 4567 } as const;

/** Code-only seams: a replacement client; the default client's request timeout (default 30000 ms). */
export interface MailgunInvitationDeliveryExtensions {
  readonly client?: MailgunClient;
  readonly timeoutMs?: number;
}

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

/**
 * Registers the Mailgun sender (`Engine:MultiTenancy:Governance:MailgunInvitationDelivery`) after
 * `addTenantGovernanceDelivery`. A 200 "Queued" is an accepted hand-off; statuses come from the webhooks
 * (a separate callback package), matched by the `v:*` variables sent here.
 */
export function addMailgunInvitationDelivery(
  builder: EngineBuilder,
  options?: MailgunSenderOptionsInput,
  extensions: MailgunInvitationDeliveryExtensions = {},
): MailgunSenderOptions {
  return addInvitationSender(
    builder,
    {
      packageName: '@corekit/sender-mailgun',
      section: 'MailgunInvitationDelivery',
      schema: mailgunSenderOptionsSchema,
      eventIds: senderEventIds(
        'Tenant governance, multipart-messages email provider delivery',
        'mailgun',
        mailgunSenderEventIds,
      ),
      describe: (settings) =>
        `endpoint host ${endpointHost(settings.BaseUrl)}, test mode ${settings.EnableTestMode}, tags ${settings.Tags.length}`,
      create: (settings) =>
        createMailgunSend(settings, extensions.client ?? mailgunJsClient(settings, extensions.timeoutMs)),
    },
    options,
  ).settings;
}
