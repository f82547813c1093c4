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
import type { MailgunSenderOptions } from './mailgun-options';
import { createMailgunTransport, type MailgunClient } from '@corekit/email-mailgun';

export type { MailgunClient, MailgunMessage } from '@corekit/email-mailgun';

/**
 * One multipart send of an invitation through the Mailgun transport. The delivery context travels in `v:*`
 * variables and `h:X-Core-*` headers; the provider message id is the JSON property
 * ProviderMessageIdJsonPropertyName (Mailgun's `id`, angle brackets included, as its webhooks expect after
 * normalisation).
 */
export function createMailgunSend(
  settings: MailgunSenderOptions,
  client: MailgunClient,
): (call: SenderCall) => Promise<InvitationSendResult> {
  const transport = createMailgunTransport(settings, client);
  return async (call) => {
    const context = deliveryContext(call, settings.SenderId);
    const message = renderInvitationMessage(settings, call);
    const variables = { ...settings.Variables, ...contextFields(context) };
    const headers = { ...settings.Headers, ...coreHeaders(context) };
    const metadata = {
      mailgunEndpointHost: endpointHost(settings.BaseUrl),
      mailgunDomain: settings.DomainName,
      mailgunTestMode: settings.EnableTestMode,
      mailgunMessageId: context.messageId,
      senderId: settings.SenderId,
      ...recipientMetadata('mailgun', call),
      mailgunTagCount: settings.Tags.length,
      mailgunVariableCount: Object.keys(variables).length,
      mailgunHeaderCount: Object.keys(headers).length,
    };
    const outcome = await transport.send(
      {
        from: { address: settings.FromAddress, name: settings.FromName },
        to: call.recipientAddress,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers,
        variables,
      },
      call.signal,
    );
    return emailSendResult(outcome, metadata, context.messageId);
  };
}
