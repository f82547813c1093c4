import {
  classifyEmailHttpStatus,
  emailOutcome,
  endpointHost,
  isTimeoutError,
  statusOfError,
  untilAborted,
  type EmailMessage,
  type EmailSendOutcome,
  type EmailTransport,
} from '@corekit/email-kit';

/** The form fields of one message (`mailgun.js` `messages.create` data: `o:*`, `h:*`, `v:*` keys). */
export type MailgunMessage = Record<string, string | string[]>;

/** The replaceable client: `mailgun.js`'s `messages.create` (resolves `{ status, ...json }`, rejects with `status`). */
export interface MailgunClient {
  create(domain: string, data: MailgunMessage): Promise<Record<string, unknown> & { status: number }>;
}

/** What a Mailgun transport needs (the invitation section and the email notifier target share these names). */
export interface MailgunTransportSettings {
  readonly BaseUrl: string;
  readonly DomainName: string;
  readonly ApiKey: string;
  readonly Tags: readonly string[];
  readonly EnableTestMode: boolean;
  readonly ProviderMessageIdJsonPropertyName: string;
  readonly AcceptedStatusCodes: readonly number[];
}

/**
 * Classifies a Mailgun client error: an HTTP status (`http-status-<code>`, `mailgunStatus`) as
 * `classifyEmailHttpStatus` does; otherwise `timeout` or `transport-error` (retryable).
 */
export function classifyMailgunError(error: unknown, signal: AbortSignal): EmailSendOutcome {
  const status = statusOfError(error);
  if (status !== null) return classifyEmailHttpStatus(status, false, null, { mailgunStatus: status });
  return emailOutcome.retryable(isTimeoutError(error, signal) ? 'timeout' : 'transport-error');
}

/** The form fields of a message: `h:*` for its headers, `v:*` for its variables, the settings' `o:*` options. */
export function mailgunMessageOf(settings: MailgunTransportSettings, message: EmailMessage): MailgunMessage {
  const data: MailgunMessage = {
    from: message.from.name ? `"${message.from.name}" <${message.from.address}>` : message.from.address,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    ...(settings.Tags.length > 0 ? { 'o:tag': [...settings.Tags] } : {}),
    ...(settings.EnableTestMode ? { 'o:testmode': 'yes' } : {}),
  };
  for (const [name, value] of Object.entries(message.headers ?? {})) data[`h:${name}`] = value;
  for (const [name, value] of Object.entries(message.variables ?? {})) data[`v:${name}`] = value;
  return data;
}

/**
 * The Mailgun transport: one multipart send to `/v3/{DomainName}/messages`; the provider message id is the JSON
 * property ProviderMessageIdJsonPropertyName (Mailgun's `id`, angle brackets included). An attempt whose signal
 * aborts is `timeout` at once.
 */
export function createMailgunTransport(
  settings: MailgunTransportSettings,
  client: MailgunClient,
): EmailTransport {
  return {
    provider: 'mailgun',
    description: `endpoint host ${endpointHost(settings.BaseUrl)}, test mode ${settings.EnableTestMode}, tags ${settings.Tags.length}`,
    secrets: [settings.ApiKey],
    async send(message: EmailMessage, signal: AbortSignal): Promise<EmailSendOutcome> {
      try {
        const sending = client.create(settings.DomainName, mailgunMessageOf(settings, message));
        const response = await untilAborted(sending, signal, () => null);
        if (!response) return emailOutcome.retryable('timeout');
        const id = response[settings.ProviderMessageIdJsonPropertyName];
        const providerMessageId = typeof id === 'string' && id ? id.slice(0, 200) : null;
        const status = response.status;
        return classifyEmailHttpStatus(
          status,
          settings.AcceptedStatusCodes.includes(status),
          providerMessageId,
          {
            mailgunStatus: status,
          },
        );
      } catch (error) {
        return classifyMailgunError(error, signal);
      }
    },
  };
}
