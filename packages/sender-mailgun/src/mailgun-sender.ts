import {
  recipientMetadata,
  contextFields,
  coreHeaders,
  deliveryContext,
  endpointHost,
  failureOf,
  renderInvitationMessage,
  statusOutcome,
  type SenderCall,
} from '@corekit/sender-kit';
import type { InvitationSendResult } from '@corekit/tenant-governance';
import type { MailgunSenderOptions } from './mailgun-options';

/** The form fields of one message (`mailgun.js` `messages.create` data: `o:*`, `h:*`, `v:*` keys). */
export type MailgunMessage = Record<string, string | string[]>;

/** The replaceable client: `mailgun.js`'s `messages.create` (resolves `{ status, ...json }`, rejects with `status`). */
export interface MailgunClient {
  create(domain: string, data: MailgunMessage): Promise<Record<string, unknown> & { status: number }>;
}

/**
 * One multipart send to `/v3/{DomainName}/messages`. The delivery context travels in `v:*` variables and
 * `h:X-Core-*` headers; the provider message id is the JSON property ProviderMessageIdJsonPropertyName
 * (Mailgun's `id`, angle brackets included, as its webhooks expect after normalisation).
 */
export function createMailgunSend(
  settings: MailgunSenderOptions,
  client: MailgunClient,
): (call: SenderCall) => Promise<InvitationSendResult> {
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
    const data: MailgunMessage = {
      from: settings.FromName ? `"${settings.FromName}" <${settings.FromAddress}>` : settings.FromAddress,
      to: call.recipientAddress,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(settings.Tags.length > 0 ? { 'o:tag': [...settings.Tags] } : {}),
      ...(settings.EnableTestMode ? { 'o:testmode': 'yes' } : {}),
    };
    for (const [name, value] of Object.entries(headers)) data[`h:${name}`] = value;
    for (const [name, value] of Object.entries(variables)) data[`v:${name}`] = value;
    try {
      const response = await client.create(settings.DomainName, data);
      const id = response[settings.ProviderMessageIdJsonPropertyName];
      const providerMessageId = typeof id === 'string' && id ? id.slice(0, 200) : null;
      const status = response.status;
      return statusOutcome(
        status,
        settings.AcceptedStatusCodes.includes(status),
        providerMessageId,
        { ...metadata, mailgunStatus: status },
        context.messageId,
      );
    } catch (error) {
      return failureOf(error, call.signal, metadata, 'mailgunStatus');
    }
  };
}
