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
import type { SendGridSenderOptions } from './sendgrid-options';

/** The message handed to the client (`@sendgrid/mail`'s camelCase shape). */
export interface SendGridMessage {
  readonly to: string;
  readonly from: { email: string; name?: string };
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  readonly categories?: string[];
  readonly customArgs: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly mailSettings?: { sandboxMode: { enable: boolean } };
}

/** The replaceable client: `@sendgrid/mail`'s `send` (resolves `[response, body]`, rejects with `code` = status). */
export interface SendGridClient {
  send(
    message: SendGridMessage,
  ): Promise<[{ statusCode: number; headers: Record<string, unknown> }, unknown]>;
}

/**
 * One mail-send call. The delivery context (tenant, invitation, channel, sender, deterministic message id)
 * travels in custom args and `X-Core-*` headers so event webhooks find the invitation; the provider message
 * id is the response header ProviderMessageIdHeaderName. Sandbox mode accepts 200 besides the listed codes.
 */
export function createSendGridSend(
  settings: SendGridSenderOptions,
  client: SendGridClient,
): (call: SenderCall) => Promise<InvitationSendResult> {
  const accepted = settings.EnableSandboxMode
    ? [...settings.AcceptedStatusCodes, 200]
    : settings.AcceptedStatusCodes;
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
    try {
      const [response] = await client.send({
        to: call.recipientAddress,
        from: { email: settings.FromAddress, ...(settings.FromName ? { name: settings.FromName } : {}) },
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(settings.Categories.length > 0 ? { categories: [...settings.Categories] } : {}),
        customArgs,
        headers: { ...settings.Headers, ...coreHeaders(context) },
        ...(settings.EnableSandboxMode ? { mailSettings: { sandboxMode: { enable: true } } } : {}),
      });
      const status = response.statusCode;
      const header = response.headers[settings.ProviderMessageIdHeaderName.toLowerCase()];
      const providerMessageId = typeof header === 'string' && header ? header.slice(0, 200) : null;
      return statusOutcome(
        status,
        accepted.includes(status),
        providerMessageId,
        { ...metadata, sendgridStatus: status },
        context.messageId,
      );
    } catch (error) {
      return failureOf(error, call.signal, metadata, 'sendgridStatus');
    }
  };
}
