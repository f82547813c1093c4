import { randomBytes } from 'node:crypto';
import {
  emailOutcome,
  isTimeoutError,
  untilAborted,
  type EmailMessage,
  type EmailSendOutcome,
  type EmailTransport,
} from '@corekit/email-kit';

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

/** The relay settings an SMTP transport needs (the invitation section and the email notifier target share them). */
export interface SmtpTransportSettings {
  readonly Host: string;
  readonly Port: number;
  readonly UseSsl: boolean;
  readonly UserName?: string | undefined;
  readonly Password?: string | undefined;
  /** Right-hand side of the Message-Id; default the message's from domain. */
  readonly MessageIdDomain?: string | undefined;
}

/** The TLS posture recorded as `smtpTls`. */
export function smtpTlsPosture(settings: Pick<SmtpTransportSettings, 'UseSsl'>): string {
  return settings.UseSsl ? 'implicit-tls' : 'starttls-when-offered';
}

/**
 * Classifies an SMTP client error: an authentication refusal is terminal `smtp-auth-failed`; a relay reply
 * `smtp-status-<code>` is retryable for a 4xx (try later) and terminal for a 5xx; a timeout (the signal
 * aborted, ETIMEDOUT) or any other error (refused connection) is retryable `timeout` / `transport-error`.
 */
export function classifySmtpError(error: unknown, signal: AbortSignal): EmailSendOutcome {
  const details = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  const code = typeof details.responseCode === 'number' ? details.responseCode : null;
  if (details.code === 'EAUTH') return emailOutcome.terminal('smtp-auth-failed', {}, code);
  if (code !== null) {
    const reason = `smtp-status-${code}`;
    return code >= 500 ? emailOutcome.terminal(reason, {}, code) : emailOutcome.retryable(reason, {}, code);
  }
  const timedOut = signal.aborted || isTimeoutError({ code: details.code }, signal);
  return emailOutcome.retryable(timedOut ? 'timeout' : 'transport-error');
}

/**
 * The SMTP transport: one hand-off to the relay per message, with the Message-Id `<messageId@domain>` (the
 * message's id, the same on every retry; a random one when it has none). The relay's acceptance is a hand-off, not a delivery: bounces
 * come later, by mail. An attempt whose signal aborts is `timeout` at once.
 */
export function createSmtpTransport(settings: SmtpTransportSettings, client: SmtpClient): EmailTransport {
  return {
    provider: 'smtp',
    description: `relay ${settings.Host}:${settings.Port}, ${smtpTlsPosture(settings)}, authenticated ${Boolean(settings.UserName)}`,
    secrets: settings.Password ? [settings.Password] : [],
    async send(message: EmailMessage, signal: AbortSignal): Promise<EmailSendOutcome> {
      const domain = settings.MessageIdDomain ?? message.from.address.split('@')[1]!;
      const messageId = `${message.messageId ?? randomBytes(16).toString('hex')}@${domain}`;
      try {
        const sending = client.sendMail(smtpMessageOf(message, messageId)).then(() => true);
        const sent = await untilAborted(sending, signal, () => false);
        return sent ? emailOutcome.delivered(250, messageId) : emailOutcome.retryable('timeout');
      } catch (error) {
        return classifySmtpError(error, signal);
      }
    },
  };
}

function smtpMessageOf(message: EmailMessage, messageId: string): SmtpMessage {
  return {
    from: message.from.name
      ? { name: message.from.name, address: message.from.address }
      : message.from.address,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    messageId: `<${messageId}>`,
    headers: { ...message.headers },
  };
}
