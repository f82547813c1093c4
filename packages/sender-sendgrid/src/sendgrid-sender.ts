import {
  recipientMetadata,
  contextFields,
  coreHeaders,
  deliveryContext,
  emailSendResult,
  endpointHost,
  renderInvitationMessage,
  type SenderCall,
} from '@corekit/sender-kit';
import type { InvitationSendResult } from '@corekit/tenant-governance';
import type { SendGridSenderOptions } from './sendgrid-options';
import { createSendGridTransport, type SendGridClient } from '@corekit/email-sendgrid';

export type { SendGridClient, SendGridMessage } from '@corekit/email-sendgrid';

/**
 * One mail-send call of an invitation through the SendGrid transport. The delivery context (tenant, invitation,
 * channel, sender, deterministic message id) travels in custom args and `X-Core-*` headers so event webhooks find
 * the invitation; the provider message id is the response header ProviderMessageIdHeaderName.
 */
export function createSendGridSend(
  settings: SendGridSenderOptions,
  client: SendGridClient,
): (call: SenderCall) => Promise<InvitationSendResult> {
  const transport = createSendGridTransport(settings, client);
  return async (call) => {
    const context = deliveryContext(call, settings.SenderId);
    const message = renderInvitationMessage(settings, call);
    const customArgs = { ...settings.CustomArgs, ...contextFields(context) };
    const metadata = {
      sendgridEndpointHost: endpointHost(settings.BaseUrl),
      sendgridSandboxMode: settings.EnableSandboxMode,
      sendgridMessageId: context.messageId,
      senderId: settings.SenderId,
      ...recipientMetadata('sendgrid', call),
      sendgridCategoryCount: settings.Categories.length,
      sendgridCustomArgCount: Object.keys(customArgs).length,
    };
    const outcome = await transport.send(
      {
        from: { address: settings.FromAddress, name: settings.FromName },
        to: call.recipientAddress,
        subject: message.subject,
        text: message.text,
        html: message.html,
        variables: customArgs,
        headers: { ...settings.Headers, ...coreHeaders(context) },
      },
      call.signal,
    );
    return emailSendResult(outcome, metadata, context.messageId);
  };
}
