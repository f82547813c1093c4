import {
  defineInvitationDelivery,
  type InvitationDeliveryFunction,
  endpointHost,
  senderEventIds,
} from '@corekit/sender-kit';
import {
  mailgunSenderOptionsSchema,
  type MailgunSenderOptions,
  type MailgunSenderOptionsInput,
} from './mailgun-options';
import { createMailgunSend, type MailgunClient } from './mailgun-sender';
import { mailgunJsClient } from '@corekit/email-mailgun';

/** Event ids of the MSG provider delivery (runtime-operations 6: 4566-4567; 4568-4571 are its callbacks'). */
export const mailgunSenderEventIds = { registered: 4566, completed: 4567 } as const;

/** Code-only seams: a replacement client; the default client's request timeout (default 30000 ms). */
export interface MailgunInvitationDeliveryExtensions {
  readonly client?: MailgunClient;
  readonly timeoutMs?: number;
}

/**
 * Registers the Mailgun sender (`Engine:MultiTenancy:Governance:MailgunInvitationDelivery`) after
 * `addTenantGovernanceDelivery`. A 200 "Queued" is an accepted hand-off; statuses come from the webhooks
 * (a separate callback package), matched by the `v:*` variables sent here.
 */
export const addMailgunInvitationDelivery: InvitationDeliveryFunction<
  MailgunSenderOptions,
  MailgunSenderOptionsInput,
  MailgunInvitationDeliveryExtensions
> = defineInvitationDelivery({
  packageName: '@corekit/sender-mailgun',
  entry: 'addMailgunInvitationDelivery',
  section: 'Engine:MultiTenancy:Governance:MailgunInvitationDelivery',
  schema: mailgunSenderOptionsSchema,
  eventIds: senderEventIds(
    'Tenant governance, multipart-messages email provider delivery',
    'mailgun',
    mailgunSenderEventIds,
  ),
  describe: (settings) =>
    `endpoint host ${endpointHost(settings.BaseUrl)}, test mode ${settings.EnableTestMode}, tags ${settings.Tags.length}`,
  create: (settings, extensions) =>
    createMailgunSend(settings, extensions.client ?? mailgunJsClient(settings, extensions.timeoutMs)),
});
