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

/** What a SendGrid transport needs (the invitation section and the email notifier target share these names). */
export interface SendGridTransportSettings {
  readonly BaseUrl: string;
  readonly ApiKey: string;
  readonly EnableSandboxMode: boolean;
  readonly Categories: readonly string[];
  readonly ProviderMessageIdHeaderName: string;
  readonly AcceptedStatusCodes: readonly number[];
}

/**
 * Classifies a SendGrid client error: an HTTP status (`http-status-<code>`, `sendgridStatus`) as
 * `classifyEmailHttpStatus` does, with the answer's `Retry-After`; otherwise `timeout` or `transport-error`
 * (retryable).
 */
export function classifySendGridError(error: unknown, signal: AbortSignal): EmailSendOutcome {
  const status = statusOfError(error);
  if (status !== null) {
    const headers = (error as { response?: { headers?: Record<string, unknown> } }).response?.headers ?? {};
    return classifyEmailHttpStatus(status, false, null, { sendgridStatus: status }, headers['retry-after']);
  }
  return emailOutcome.retryable(isTimeoutError(error, signal) ? 'timeout' : 'transport-error');
}

/**
 * The SendGrid transport: one `POST /v3/mail/send`. The message's variables travel as custom args, its headers
 * as headers; the provider message id is the response header ProviderMessageIdHeaderName. Sandbox mode accepts
 * 200 besides the listed codes. An attempt whose signal aborts is `timeout` at once.
 */
export function createSendGridTransport(
  settings: SendGridTransportSettings,
  client: SendGridClient,
): EmailTransport {
  const accepted = settings.EnableSandboxMode
    ? [...settings.AcceptedStatusCodes, 200]
    : settings.AcceptedStatusCodes;
  return {
    provider: 'sendgrid',
    description: `endpoint host ${endpointHost(settings.BaseUrl)}, sandbox ${settings.EnableSandboxMode}, categories ${settings.Categories.length}`,
    secrets: [settings.ApiKey],
    async send(message: EmailMessage, signal: AbortSignal): Promise<EmailSendOutcome> {
      try {
        const answer = await untilAborted(
          client.send(sendGridMessageOf(settings, message)),
          signal,
          () => null,
        );
        if (!answer) return emailOutcome.retryable('timeout');
        const [response] = answer;
        const status = response.statusCode;
        const header = response.headers[settings.ProviderMessageIdHeaderName.toLowerCase()];
        const providerMessageId = typeof header === 'string' && header ? header.slice(0, 200) : null;
        return classifyEmailHttpStatus(
          status,
          accepted.includes(status),
          providerMessageId,
          { sendgridStatus: status },
          response.headers['retry-after'],
        );
      } catch (error) {
        return classifySendGridError(error, signal);
      }
    },
  };
}

function sendGridMessageOf(settings: SendGridTransportSettings, message: EmailMessage): SendGridMessage {
  return {
    to: message.to,
    from: { email: message.from.address, ...(message.from.name ? { name: message.from.name } : {}) },
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    ...(settings.Categories.length > 0 ? { categories: [...settings.Categories] } : {}),
    customArgs: { ...message.variables },
    headers: { ...message.headers },
    ...(settings.EnableSandboxMode ? { mailSettings: { sandboxMode: { enable: true } } } : {}),
  };
}
