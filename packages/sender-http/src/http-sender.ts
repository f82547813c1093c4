import {
  recipientMetadata,
  coreHeaders,
  deliveryContext,
  deliveryContextBody,
  isAcceptedStatus,
  renderInvitationMessage,
  senderOutcome,
  type SenderCall,
} from '@corekit/sender-kit';
import type { InvitationSendResult } from '@corekit/tenant-governance';
import type { HttpSenderClient, HttpSenderResponse } from './http-client';
import type { HttpSenderOptions } from './http-options';
import { idempotencyKey } from './idempotency';
import { signWebhookBody } from './signing';

type Metadata = Record<string, string | number | boolean | null>;

/**
 * The webhook send: one JSON body, signed per attempt when a secret is set, retried on RetryStatusCodes and
 * (when enabled) transport failures with a fixed delay, every attempt and delay inside TimeoutSeconds.
 */
export function createHttpSend(
  settings: HttpSenderOptions,
  client: HttpSenderClient,
  now: () => number = Date.now,
): (call: SenderCall) => Promise<InvitationSendResult> {
  return async (call) => {
    const context = deliveryContext(call, settings.SenderId);
    const message = renderInvitationMessage(settings, call);
    const body = JSON.stringify({
      ...deliveryContextBody(context),
      roles: call.invitation.roles,
      expiresAtUtc: call.invitation.expiresAtUtc,
      attempt: call.attempt,
      recipientEmail: call.recipientAddress,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html,
    });
    const metadata: Metadata = {
      httpMaxAttempts: settings.MaxAttempts,
      httpRetried: false,
      httpRetryReason: null,
      ...recipientMetadata('http', call),
    };
    const headers: Record<string, string> = {
      ...settings.Headers,
      ...coreHeaders(context),
      'content-type': 'application/json',
    };
    if (settings.EnableIdempotencyHeader) {
      const idempotency = idempotencyKey(call.metadata[settings.IdempotencyMetadataKey], context);
      headers[settings.IdempotencyHeaderName] = idempotency.key;
      metadata.httpIdempotencyKey = idempotency.key;
      metadata.httpIdempotencyKeySource = idempotency.source;
    }
    if (settings.SigningSecret) {
      metadata.httpSigned = true;
      if (settings.SigningKeyId) metadata.httpSigningKeyId = settings.SigningKeyId;
    }
    const deadline = now() + settings.TimeoutSeconds * 1000;
    let attempts = 0;
    let last: { response?: HttpSenderResponse; timedOut?: boolean } = {};
    while (attempts < settings.MaxAttempts) {
      attempts++;
      metadata.httpAttemptCount = attempts;
      const remaining = deadline - now();
      if (settings.SigningSecret) {
        const timestamp = Math.floor(now() / 1000);
        headers[settings.SignatureHeaderName] = signWebhookBody(settings.SigningSecret, timestamp, body);
        headers[settings.SignatureTimestampHeaderName] = String(timestamp);
        if (settings.SigningKeyId) headers[settings.SignatureKeyIdHeaderName] = settings.SigningKeyId;
      }
      let retryReason: string | null = null;
      const attemptSignal = AbortSignal.any([call.signal, AbortSignal.timeout(Math.max(1, remaining))]);
      try {
        const response = await client({
          url: settings.Endpoint,
          method: settings.Method,
          headers,
          body,
          signal: attemptSignal,
          maxBodyBytes: settings.IncludeResponseBodyInMetadata ? settings.ResponseBodyMetadataLimit * 4 : 0,
        });
        last = { response };
        if (isAcceptedStatus(response.status, settings.ExpectedStatusCodes)) break;
        if (settings.RetryStatusCodes.includes(response.status)) retryReason = `status-${response.status}`;
      } catch {
        last = { timedOut: attemptSignal.aborted };
        if (last.timedOut) break;
        if (settings.RetryTransportFailures) retryReason = 'transport-error';
      }
      if (retryReason === null || attempts >= settings.MaxAttempts) break;
      if (now() + settings.RetryDelayMilliseconds >= deadline) break;
      metadata.httpRetried = true;
      metadata.httpRetryReason = retryReason;
      await delay(settings.RetryDelayMilliseconds, call.signal);
    }
    const response = last.response;
    if (!response) return senderOutcome.failed(last.timedOut ? 'timeout' : 'transport-error', metadata);
    if (settings.IncludeResponseBodyInMetadata)
      metadata.httpResponseExcerpt = response.body.slice(0, settings.ResponseBodyMetadataLimit);
    if (!isAcceptedStatus(response.status, settings.ExpectedStatusCodes))
      return senderOutcome.failed(`http-status-${response.status}`, metadata);
    const providerMessageId = response.headers[settings.ProviderMessageIdHeaderName.toLowerCase()]?.slice(
      0,
      200,
    );
    return senderOutcome.dispatched(providerMessageId || null, metadata, context.messageId);
  };
}

function delay(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
