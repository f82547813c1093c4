/*
 * The message-neutral part of the email senders: an email message, a transport that hands it to a provider (SMTP
 * relay, SendGrid...) and classifies what happened. Nothing here knows invitations: the invitation senders build
 * a message from an invitation and map the outcome to a send result (`emailSendResult`); the email notifier builds
 * one from an alert notification and maps it to a notifier outcome.
 */

/** One email as a transport sends it. */
export interface EmailMessage {
  readonly from: { readonly address: string; readonly name?: string | undefined };
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string | null | undefined;
  /** Extra headers (validated by the caller: no credential, framing or routing header). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The caller's id of this message, the same on every retry (`[0-9a-f]{32}`...): SMTP derives the Message-Id
   * from it (`<messageId@domain>`); HTTP providers ignore it unless the caller also puts it in `variables`.
   */
  readonly messageId?: string;
  /** Per-message variables a provider echoes in its events (SendGrid custom args, Mailgun `v:` fields). */
  readonly variables?: Readonly<Record<string, string>>;
}

/**
 * What one send came to. `delivered`: the provider accepted the message (a hand-off, not a delivery to the
 * inbox). `retryable`: trying later may work (a 5xx, 408, 429, a 4xx SMTP reply, a timeout, a refused
 * connection), after `retryAfterMs` when the provider said so. `terminal`: trying again cannot help (a 4xx HTTP
 * answer, a 5xx SMTP reply, refused credentials). `reason` is a safe code (`http-status-503`, `smtp-status-550`,
 * `smtp-auth-failed`, `timeout`, `transport-error`): never an address, a header value or a secret. `metadata`
 * holds the transport's safe facts (hosts, statuses, postures).
 */
export type EmailSendOutcome =
  | {
      readonly outcome: 'delivered';
      readonly responseCode: number | null;
      readonly providerMessageId: string | null;
      readonly metadata: EmailTransportMetadata;
    }
  | {
      readonly outcome: 'retryable';
      readonly responseCode: number | null;
      readonly reason: string;
      readonly retryAfterMs: number | null;
      readonly metadata: EmailTransportMetadata;
    }
  | {
      readonly outcome: 'terminal';
      readonly responseCode: number | null;
      readonly reason: string;
      readonly metadata: EmailTransportMetadata;
    };

/** Safe facts of one send (no address, no secret). */
export type EmailTransportMetadata = Readonly<Record<string, string | number | boolean | null>>;

/** A provider's way to send an email: built once from its settings and client, used for every message. */
export interface EmailTransport {
  /** `smtp`, `sendgrid`... */
  readonly provider: string;
  /** A safe one-line description (`relay 127.0.0.1:2525, implicit-tls, authenticated true`). */
  readonly description: string;
  /** The secret values the transport holds (password, API key): the caller registers them for redaction. */
  readonly secrets: readonly string[];
  /** One attempt; never throws (a thrown client error is classified). */
  send(message: EmailMessage, signal: AbortSignal): Promise<EmailSendOutcome>;
}

export const emailOutcome = {
  delivered(
    responseCode: number | null,
    providerMessageId: string | null,
    metadata: EmailTransportMetadata = {},
  ): EmailSendOutcome {
    return { outcome: 'delivered', responseCode, providerMessageId, metadata };
  },
  retryable(
    reason: string,
    metadata: EmailTransportMetadata = {},
    responseCode: number | null = null,
    retryAfterMs: number | null = null,
  ): EmailSendOutcome {
    return { outcome: 'retryable', responseCode, reason, retryAfterMs, metadata };
  },
  terminal(
    reason: string,
    metadata: EmailTransportMetadata = {},
    responseCode: number | null = null,
  ): EmailSendOutcome {
    return { outcome: 'terminal', responseCode, reason, metadata };
  },
};

/** The longest wait a `Retry-After` is taken at (a day). */
const maxRetryAfterMs = 24 * 60 * 60 * 1000;

/** A `Retry-After` value (delay-seconds or an HTTP date) in milliseconds; null when absent or unreadable. */
export function retryAfterMsOf(value: unknown, now: number = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || !text.trim()) return null;
  if (/^\d+$/.test(text.trim())) return Math.min(Number(text.trim()) * 1000, maxRetryAfterMs);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.min(Math.max(0, date - now), maxRetryAfterMs);
}

/**
 * An HTTP provider's answer: `accepted` is delivered; 408, 425, 429 and 5xx are retryable (`http-status-<code>`,
 * with `retryAfter` when given); any other status is terminal.
 */
export function classifyEmailHttpStatus(
  status: number,
  accepted: boolean,
  providerMessageId: string | null,
  metadata: EmailTransportMetadata,
  retryAfter?: unknown,
): EmailSendOutcome {
  if (accepted) return emailOutcome.delivered(status, providerMessageId, metadata);
  const reason = `http-status-${status}`;
  if (status >= 500 || status === 408 || status === 425 || status === 429)
    return emailOutcome.retryable(reason, metadata, status, retryAfterMsOf(retryAfter));
  return emailOutcome.terminal(reason, metadata, status);
}

/**
 * True when a client error is a timeout: the attempt's signal aborted, or the client's own timeout fired
 * (`TimeoutError`, `AbortError`, `ETIMEDOUT`, `ECONNABORTED`...).
 */
export function isTimeoutError(error: unknown, signal: AbortSignal): boolean {
  const details = (error && typeof error === 'object' ? error : {}) as { name?: unknown; code?: unknown };
  return (
    signal.aborted ||
    /timeout|abort/i.test(String(details.name ?? '')) ||
    /^(ETIMEDOUT|ECONNABORTED|ESOCKETTIMEDOUT|UND_ERR_.*TIMEOUT)$/.test(String(details.code ?? ''))
  );
}

/**
 * Runs one client call, answering `onAbort()` as soon as `signal` aborts (the client may go on in the background
 * until its own timeout: its late answer is ignored).
 */
export function untilAborted<T>(call: Promise<T>, signal: AbortSignal, onAbort: () => T): Promise<T> {
  if (signal.aborted) {
    call.catch(() => undefined);
    return Promise.resolve(onAbort());
  }
  return new Promise<T>((resolve, reject) => {
    const aborted = () => resolve(onAbort());
    signal.addEventListener('abort', aborted, { once: true });
    call.then(
      (value) => {
        signal.removeEventListener('abort', aborted);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(error);
      },
    );
  });
}
