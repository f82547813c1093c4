import { replaySurface, type IdempotencySurface, type ReplayGuard } from '@corekit/callback-kit';
import { sesCallbackEventIds } from './ses-event-ids';
import { snsTimestampFutureSkewSeconds, type SesCallbackOptions } from './ses-options';

/** The CLOUD parts of the callback surface: never a topic ARN, a certificate, a URL or a token. */
export function sesSurface(
  settings: SesCallbackOptions,
  replayGuard: ReplayGuard | undefined,
  confirmations: { confirmed: number; refused: number; unsubscribeObserved: number },
  customClient: boolean,
) {
  const verifying = settings.RequireSnsSignatureVerification;
  const replay = replaySurface(replayGuard, 'reject-redelivered-verified-message', 'topic-arn+message-id');

  const idempotency: IdempotencySurface = {
    enabled: settings.EnableSnsMessageIdIdempotency,
    key: 'amazon-ses-sns:<MessageId>',
    diagnosticEventId: sesCallbackEventIds.messageDuplicate,
  };
  return {
    translation: {
      bodyShape: 'sns-envelope',
      textPlainAccepted: true,
      rawSesEventPayloadsAccepted: !verifying && settings.AcceptRawSesEventPayloads,
      statusMapping: {
        Send: 'accepted',
        Delivery: 'delivered',
        'Bounce/Transient': 'deferred',
        Bounce: 'bounced',
        Complaint: 'suppressed',
        Reject: 'suppressed',
        'Rendering Failure': 'failed',
        DeliveryDelay: 'deferred',
        Open: 'engagement',
        Click: 'engagement',
        Subscription: 'skipped',
      },
      eventIdField: 'MessageId',
      providerMessageIdSource: 'mail.messageId',
      contextSource: 'mail.tags',
    },
    signature: verifying
      ? {
          configured: true,
          required: true,
          status: 'required',
          algorithm: settings.RequireSnsSignatureVersion2 ? 'SHA256withRSA' : 'SHA1withRSA-or-SHA256withRSA',
          signatureVersion2Required: settings.RequireSnsSignatureVersion2,
          allowedTopicRequired: settings.RequireAllowedSnsTopicArn,
          allowedTopicCount: settings.AllowedSnsTopicArns.length,
          certificateUrlValidation: 'https, .pem, sns.<region>.amazonaws.com(.cn)',
          certificateChainValidated: settings.ValidateSnsSigningCertificateChain,
          certificatePathValidation: settings.ValidateSnsSigningCertificateChain
            ? 'rfc5280-pkijs-with-path-length'
            : 'pinned-certificate',
          messageIdFormat: 'uuid',
          messageMaxAgeSeconds: settings.SnsMessageMaxAgeSeconds,
          timestampFutureSkewSeconds: snsTimestampFutureSkewSeconds,
          pinnedCertificateConfigured: settings.PinnedSnsSigningCertificatePem !== undefined,
          unsubscribeConfirmationTokenSigned: true,
          failureAnswer: 401,
        }
      : { configured: false, required: false, status: 'not-configured' },
    replay,
    idempotency,
    extra: {
      subscriptionConfirmation: {
        enabled: settings.EnableSnsSubscriptionConfirmation,
        status: settings.EnableSnsSubscriptionConfirmation ? 'enabled' : 'not-configured',
        client: customClient ? 'host-provided' : 'bounded-https-get',
        redirectsFollowed: false,
        timeoutSeconds: settings.SnsSubscriptionConfirmationTimeoutSeconds,
        confirmed: confirmations.confirmed,
        refused: confirmations.refused,
        diagnosticEventIds: [
          sesCallbackEventIds.subscriptionConfirmed,
          sesCallbackEventIds.subscriptionConfirmationRefused,
        ],
      },
      unsubscribeConfirmationObservation: {
        enabled: settings.EnableSnsUnsubscribeConfirmationObservation,
        urlInvoked: false,
        observed: confirmations.unsubscribeObserved,
        diagnosticEventId: sesCallbackEventIds.unsubscribeConfirmationObserved,
      },
    },
  };
}
