import {
  defineInvitationDelivery,
  type InvitationDeliveryFunction,
  endpointHost,
  senderEventIds,
} from '@corekit/sender-kit';
import {
  sendGridSenderOptionsSchema,
  type SendGridSenderOptions,
  type SendGridSenderOptionsInput,
} from './sendgrid-options';
import { createSendGridSend, type SendGridClient } from './sendgrid-sender';
import { sendGridMailClient } from '@corekit/email-sendgrid';

/** Event ids of the SEND provider delivery (runtime-operations 6: 4560-4561; 4562-4565 are its callbacks'). */
export const sendGridSenderEventIds = { registered: 4560, completed: 4561 } as const;

/** Code-only seams: a replacement client; the default client's request timeout (default 30000 ms). */
export interface SendGridInvitationDeliveryExtensions {
  readonly client?: SendGridClient;
  readonly timeoutMs?: number;
}

/**
 * Registers the SendGrid sender (`Engine:MultiTenancy:Governance:SendGridInvitationDelivery`) after
 * `addTenantGovernanceDelivery`. A 202 is an accepted hand-off; delivery statuses come from the event
 * webhook (a separate callback package), matched by the custom args sent here.
 */
export const addSendGridInvitationDelivery: InvitationDeliveryFunction<
  SendGridSenderOptions,
  SendGridSenderOptionsInput,
  SendGridInvitationDeliveryExtensions
> = defineInvitationDelivery({
  packageName: '@corekit/sender-sendgrid',
  entry: 'addSendGridInvitationDelivery',
  section: 'Engine:MultiTenancy:Governance:SendGridInvitationDelivery',
  schema: sendGridSenderOptionsSchema,
  eventIds: senderEventIds(
    'Tenant governance, JSON mail-send email provider delivery',
    'sendgrid',
    sendGridSenderEventIds,
  ),
  describe: (settings) =>
    `endpoint host ${endpointHost(settings.BaseUrl)}, sandbox ${settings.EnableSandboxMode}, categories ${settings.Categories.length}`,
  create: (settings, extensions) =>
    createSendGridSend(settings, extensions.client ?? sendGridMailClient(settings, extensions.timeoutMs)),
});
