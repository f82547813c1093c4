import { randomUUID } from 'node:crypto';
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
import type { GraphTokenProvider } from './graph-authority';

/** One sendMail request: the path under the version, the JSON body, the bearer token. */
export interface GraphSendMailRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly token: string;
  readonly clientRequestId: string;
  readonly signal: AbortSignal;
}

/** The replaceable Graph client: answers the status and request ids (and a message id if it has one). */
export interface GraphMailClient {
  sendMail(request: GraphSendMailRequest): Promise<{
    status: number;
    requestId: string | null;
    providerMessageId?: string | null;
    /** The answer's `Retry-After` (Graph throttling answers 429 with one). */
    retryAfter?: string | null;
  }>;
}

/** What a Graph transport needs (the invitation section and other senders share these names). */
export interface GraphTransportSettings {
  readonly BaseUrl: string;
  readonly SenderUserId?: string | undefined;
  readonly SaveToSentItems: boolean;
  readonly Categories: readonly string[];
  readonly AcceptedStatusCodes: readonly number[];
}

/**
 * Classifies a Graph client error: an HTTP status (`http-status-<code>`, `graphStatus`) as
 * `classifyEmailHttpStatus` does; otherwise `timeout` or `transport-error` (retryable).
 */
export function classifyGraphError(error: unknown, signal: AbortSignal): EmailSendOutcome {
  const status = statusOfError(error);
  if (status !== null) return classifyEmailHttpStatus(status, false, null, { graphStatus: status });
  return emailOutcome.retryable(isTimeoutError(error, signal) ? 'timeout' : 'transport-error');
}

/** The sendMail body of a message: HTML when it has one (else text), its headers as internet message headers. */
export function graphSendMailBodyOf(
  settings: GraphTransportSettings,
  message: EmailMessage,
): Record<string, unknown> {
  return {
    message: {
      subject: message.subject,
      body: message.html
        ? { contentType: 'HTML', content: message.html }
        : { contentType: 'Text', content: message.text },
      toRecipients: [{ emailAddress: { address: message.to } }],
      internetMessageHeaders: Object.entries(message.headers ?? {}).map(([name, value]) => ({ name, value })),
      ...(settings.Categories.length > 0 ? { categories: [...settings.Categories] } : {}),
    },
    saveToSentItems: settings.SaveToSentItems,
  };
}

/**
 * The Microsoft Graph transport: one sendMail call, `/users/{SenderUserId}/sendMail` or `/me/sendMail`, with a
 * token from `tokens` (a failure is retryable `token-unavailable`). The mailbox is the sender: the message's from
 * is not sent. A 202 is an accepted hand-off; Graph returns no message id. `client-request-id` is the message's
 * id (a new one when it has none). An attempt whose signal aborts is `timeout` at once.
 */
export function createGraphTransport(
  settings: GraphTransportSettings,
  client: GraphMailClient,
  tokens: GraphTokenProvider,
): EmailTransport {
  const path = settings.SenderUserId
    ? `/users/${encodeURIComponent(settings.SenderUserId)}/sendMail`
    : '/me/sendMail';
  return {
    provider: 'graph',
    description: `endpoint host ${endpointHost(settings.BaseUrl)}, ${settings.SenderUserId ? 'sender user' : 'me'}`,
    secrets: [],
    async send(message: EmailMessage, signal: AbortSignal): Promise<EmailSendOutcome> {
      let token: string;
      try {
        token = await tokens.getToken(signal);
      } catch {
        return emailOutcome.retryable('token-unavailable');
      }
      try {
        const sending = client.sendMail({
          path,
          token,
          clientRequestId: message.messageId ?? randomUUID(),
          signal,
          body: graphSendMailBodyOf(settings, message),
        });
        const response = await untilAborted(sending, signal, () => null);
        if (!response) return emailOutcome.retryable('timeout');
        const metadata = {
          graphStatus: response.status,
          graphRequestId: response.requestId?.slice(0, 100) ?? null,
        };
        const accepted = settings.AcceptedStatusCodes.includes(response.status);
        return classifyEmailHttpStatus(
          response.status,
          accepted,
          response.providerMessageId ?? null,
          metadata,
          response.retryAfter,
        );
      } catch (error) {
        return classifyGraphError(error, signal);
      }
    },
  };
}
