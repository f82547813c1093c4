import {
  classifyEmailHttpStatus,
  emailOutcome,
  isTimeoutError,
  statusOfError,
  untilAborted,
  type EmailMessage,
  type EmailSendOutcome,
  type EmailTransport,
} from '@corekit/email-kit';
import { sesTagName, sesTagValue } from './ses-tags';

/** The SES v2 SendEmail input (the SDK's `SendEmailCommandInput` shape, the fields used here). */
export interface SesSendEmailInput {
  readonly FromEmailAddress: string;
  readonly Destination: { ToAddresses: string[] };
  readonly Content: {
    Simple: { Subject: { Data: string }; Body: { Text: { Data: string }; Html?: { Data: string } } };
  };
  readonly EmailTags: Array<{ Name: string; Value: string }>;
  readonly ConfigurationSetName?: string;
}

/** The replaceable client seam: one SES v2 SendEmail call answering the message id and HTTP status. */
export interface SesClient {
  sendEmail(
    input: SesSendEmailInput,
    signal: AbortSignal,
  ): Promise<{ MessageId?: string; $metadata: { httpStatusCode?: number } }>;
}

/** What an SES transport needs (the invitation section and other senders share these names). */
export interface SesTransportSettings {
  readonly RegionSystemName: string;
  readonly ConfigurationSetName?: string | undefined;
  readonly AcceptedStatusCodes: readonly number[];
}

/**
 * Classifies an SES client error: an HTTP status (`http-status-<code>`, `sesStatus`) as `classifyEmailHttpStatus`
 * does; otherwise `timeout` or `transport-error` (retryable).
 */
export function classifySesError(error: unknown, signal: AbortSignal): EmailSendOutcome {
  const status = statusOfError(error);
  if (status !== null) return classifyEmailHttpStatus(status, false, null, { sesStatus: status });
  return emailOutcome.retryable(isTimeoutError(error, signal) ? 'timeout' : 'transport-error');
}

const sesTagAlphabet = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * The SendEmail input of a message: its variables as email tags, names sanitized by `sesTagName`, values already
 * in SES's alphabet as they are and others encoded by `sesTagValue`.
 */
export function sesSendEmailInputOf(
  settings: SesTransportSettings,
  message: EmailMessage,
): SesSendEmailInput {
  const tags = new Map<string, string>();
  for (const [name, value] of Object.entries(message.variables ?? {}))
    tags.set(sesTagName(name), sesTagAlphabet.test(value) ? value : sesTagValue(value));
  return {
    FromEmailAddress: message.from.name
      ? `"${message.from.name}" <${message.from.address}>`
      : message.from.address,
    Destination: { ToAddresses: [message.to] },
    Content: {
      Simple: {
        Subject: { Data: message.subject },
        Body: { Text: { Data: message.text }, ...(message.html ? { Html: { Data: message.html } } : {}) },
      },
    },
    EmailTags: [...tags].map(([Name, Value]) => ({ Name, Value })),
    ...(settings.ConfigurationSetName ? { ConfigurationSetName: settings.ConfigurationSetName } : {}),
  };
}

/**
 * The Amazon SES v2 transport: one SendEmail call (SES v2 has no custom headers in a simple message: the message's
 * headers are not sent; its variables are email tags, published with a configuration set). A 200 with a MessageId
 * is delivered; a 200 without one is retryable `ses-message-id-missing`. An attempt whose signal aborts is
 * `timeout` at once.
 */
export function createSesTransport(settings: SesTransportSettings, client: SesClient): EmailTransport {
  return {
    provider: 'ses',
    description: `region ${settings.RegionSystemName}, configuration set ${settings.ConfigurationSetName ? 'set' : 'unset'}`,
    secrets: [],
    async send(message: EmailMessage, signal: AbortSignal): Promise<EmailSendOutcome> {
      try {
        const sending = client.sendEmail(sesSendEmailInputOf(settings, message), signal);
        const response = await untilAborted(sending, signal, () => null);
        if (!response) return emailOutcome.retryable('timeout');
        const status = response.$metadata.httpStatusCode ?? 200;
        const accepted = settings.AcceptedStatusCodes.includes(status);
        if (accepted && !response.MessageId)
          return emailOutcome.retryable('ses-message-id-missing', { sesStatus: status }, status);
        return classifyEmailHttpStatus(status, accepted, response.MessageId?.slice(0, 200) ?? null, {
          sesStatus: status,
        });
      } catch (error) {
        return classifySesError(error, signal);
      }
    },
  };
}
