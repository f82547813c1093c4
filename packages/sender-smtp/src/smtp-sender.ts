import {
  recipientMetadata,
  coreHeaders,
  deliveryContext,
  renderInvitationMessage,
  senderOutcome,
  type SenderCall,
} from '@corekit/sender-kit';
import type { InvitationSendResult } from '@corekit/tenant-governance';
import type { SmtpSenderOptions } from './smtp-options';

/** The message handed to the SMTP client (nodemailer's `sendMail` shape). */
export interface SmtpMessage {
  readonly from: { name: string; address: string } | string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  readonly messageId: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The replaceable SMTP client: a nodemailer transporter or anything with its `sendMail`. */
export interface SmtpClient {
  sendMail(message: SmtpMessage): Promise<{ messageId?: string; accepted?: unknown[] }>;
}

/** The TLS posture recorded as `smtpTls`. */
export function smtpTlsPosture(settings: Pick<SmtpSenderOptions, 'UseSsl'>): string {
  return settings.UseSsl ? 'implicit-tls' : 'starttls-when-offered';
}

/**
 * One SMTP hand-off: the Message-Id `<{messageId}@{MessageIdDomain}>` is derived from tenant, invitation,
 * channel and sender, so a retried message carries the same id. A reply code from the relay is
 * sender-failed `smtp-status-<code>`; an authentication refusal `smtp-auth-failed`; otherwise
 * `timeout` or `transport-error`; all retryable.
 */
export function createSmtpSend(
  settings: SmtpSenderOptions,
  client: SmtpClient,
): (call: SenderCall) => Promise<InvitationSendResult> {
  const domain = settings.MessageIdDomain ?? settings.FromAddress.split('@')[1]!;
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
    try {
      await client.sendMail({
        from: settings.FromDisplayName
          ? { name: settings.FromDisplayName, address: settings.FromAddress }
          : settings.FromAddress,
        to: call.recipientAddress,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        messageId: `<${context.messageId}@${domain}>`,
        headers: { ...settings.Headers, ...coreHeaders(context) },
      });
      return senderOutcome.dispatched(`${context.messageId}@${domain}`, metadata, context.messageId);
    } catch (error) {
      const details = (error ?? {}) as { responseCode?: unknown; code?: unknown };
      if (details.code === 'EAUTH') return senderOutcome.failed('smtp-auth-failed', metadata);
      if (typeof details.responseCode === 'number')
        return senderOutcome.failed(`smtp-status-${details.responseCode}`, metadata);
      const timedOut = call.signal.aborted || details.code === 'ETIMEDOUT';
      return senderOutcome.failed(timedOut ? 'timeout' : 'transport-error', metadata);
    }
  };
}
