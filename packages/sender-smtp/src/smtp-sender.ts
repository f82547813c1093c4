import {
  recipientMetadata,
  coreHeaders,
  deliveryContext,
  emailSendResult,
  renderInvitationMessage,
  type SenderCall,
} from '@corekit/sender-kit';
import type { InvitationSendResult } from '@corekit/tenant-governance';
import type { SmtpSenderOptions } from './smtp-options';
import { createSmtpTransport, smtpTlsPosture, type SmtpClient } from '@corekit/email-smtp';

export { smtpTlsPosture } from '@corekit/email-smtp';
export type { SmtpClient, SmtpMessage } from '@corekit/email-smtp';

/**
 * One SMTP hand-off of an invitation through the SMTP transport: the Message-Id `<{messageId}@{MessageIdDomain}>`
 * is derived from tenant, invitation, channel and sender, so a retried message carries the same id. A reply code
 * from the relay is sender-failed `smtp-status-<code>`; an authentication refusal `smtp-auth-failed`; otherwise
 * `timeout` or `transport-error`; all retryable.
 */
export function createSmtpSend(
  settings: SmtpSenderOptions,
  client: SmtpClient,
): (call: SenderCall) => Promise<InvitationSendResult> {
  const domain = settings.MessageIdDomain ?? settings.FromAddress.split('@')[1]!;
  const transport = createSmtpTransport({ ...settings, MessageIdDomain: domain }, client);
  return async (call) => {
    const context = deliveryContext(call, settings.SenderId);
    const message = renderInvitationMessage(settings, call);
    const metadata = {
      smtpHost: settings.Host,
      smtpPort: settings.Port,
      smtpTls: smtpTlsPosture(settings),
      smtpAuthenticated: Boolean(settings.UserName),
      smtpMessageId: context.messageId,
      smtpMessageIdDomain: domain,
      senderId: settings.SenderId,
      ...recipientMetadata('smtp', call),
    };
    const outcome = await transport.send(
      {
        from: { address: settings.FromAddress, name: settings.FromDisplayName },
        to: call.recipientAddress,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: context.messageId,
        headers: { ...settings.Headers, ...coreHeaders(context) },
      },
      call.signal,
    );
    return emailSendResult(outcome, metadata, context.messageId);
  };
}
