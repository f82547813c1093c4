import { OperationError, type Logger } from '@corekit/abstractions';
import {
  batchItems,
  callbackErrorCodes,
  isRecord,
  parseJsonBody,
  defineStatusCallbacks,
  type StatusCallbacksFunction,
  type CallbackExtensions,
  type CallbackResult,
  type TranslatedEvent,
} from '@corekit/callback-kit';
import { sesCallbackEventIdNames, sesCallbackEventIds as ids } from './ses-event-ids';
import {
  sesCallbackOptionsSchema,
  type SesCallbackOptions,
  type SesCallbackOptionsInput,
} from './ses-options';
import { sesSurface } from './ses-surface';
import { rawEventId, translateSesEvent } from './ses-translate';
import { SigningCertificates } from './signing-certificates';
import { httpsConfirmationClient, type SnsConfirmationClient } from './sns-confirmation';
import { looksLikeEnvelope, validSubscribeUrl, type SnsEnvelope } from './sns-envelope';
import type { SnsTransport } from './sns-https';
import { verifySnsEnvelope } from './sns-verifier';

export const sesCallbackOperationId = 'tenant-governance.amazon-ses-status-callback';
export const sesCallbackSurfaceId = 'tenant-invitation-delivery-amazon-ses-status-callbacks';
const category = 'tenant-governance.ses-callback';

/** Code-only extensions: the clock, how certificates and subscribe URLs are reached, the confirmation client. */
export interface SesCallbackExtensions extends CallbackExtensions {
  readonly transport?: SnsTransport;
  readonly confirmationClient?: SnsConfirmationClient;
}

/**
 * Maps the CLOUD (Amazon SES through SNS) callback: `POST /engine/tenant-invitations/delivery-status/amazon-ses-sns`
 * (configurable), an SNS envelope (`text/plain` bodies accepted) or, only with verification off and
 * AcceptRawSesEventPayloads, raw SES event objects or arrays for controlled tests. Needs
 * `addTenantGovernanceDelivery` first; calling it twice is refused.
 */
export const mapSesStatusCallbacks: StatusCallbacksFunction<
  SesCallbackOptions,
  SesCallbackOptionsInput,
  SesCallbackExtensions
> = defineStatusCallbacks({
  providerKey: 'amazon-ses-sns',
  packageName: '@corekit/callback-ses',
  entry: 'mapSesStatusCallbacks',
  section: 'Engine:MultiTenancy:Governance:AmazonSesInvitationDelivery:AspNetCore',
  operationId: sesCallbackOperationId,
  surfaceId: sesCallbackSurfaceId,
  displayName: 'Amazon SES (SNS) delivery-status callbacks',
  summary: 'Receives SNS notifications of SES events and reconciles invitation delivery statuses',
  description: 'Body: an SNS envelope (Notification, SubscriptionConfirmation, UnsubscribeConfirmation).',
  schema: sesCallbackOptionsSchema as never,
  eventIds: {
    component: 'Tenant governance, Amazon SES callbacks',
    ranges: [[4578, 4584]],
    names: sesCallbackEventIdNames,
  },
  category,
  requestLabel: 'An SES callback',
  recordIds: {
    processed: ids.callbackProcessed,
    duplicate: ids.messageDuplicate,
    replayRefused: ids.replayRefused,
    signatureRefused: ids.verificationRefused,
  },
  implement: (runtime, extensions) => {
    const settings = runtime.options;
    const verifying = settings.RequireSnsSignatureVerification;
    const timeoutMs = settings.SnsSubscriptionConfirmationTimeoutSeconds * 1000;
    const certificates = new SigningCertificates({
      validateChain: settings.ValidateSnsSigningCertificateChain,
      ...(settings.PinnedSnsSigningCertificatePem
        ? { pinnedPem: settings.PinnedSnsSigningCertificatePem }
        : {}),
      transport: extensions.transport ?? {},
      now: runtime.now,
      timeoutMs,
    });
    const client = extensions.confirmationClient ?? httpsConfirmationClient(extensions.transport ?? {});
    const replay =
      verifying && settings.EnableSnsReplayProtection
        ? runtime.openReplayGuard(
            'callback-ses-replay',
            settings.SnsReplayRetentionSeconds,
            settings.SnsReplayCacheLimit,
          )
        : undefined;
    const confirmations = { confirmed: 0, refused: 0, unsubscribeObserved: 0 };
    const emptyResult = (
      kind: CallbackResult['kind'],
      confirmation: CallbackResult['confirmation'],
    ): CallbackResult => ({
      provider: 'amazon-ses-sns',
      kind,
      received: 0,
      translated: 0,
      skipped: 0,
      recorded: settings.RecordStatus,
      accepted: 0,
      rejected: 0,
      duplicateEvents: 0,
      outcomes: [],
      confirmation,
    });
    const reconcile = (events: readonly TranslatedEvent[], logger: Logger) =>
      runtime.reconcileAndLog(events, { idempotency: settings.EnableSnsMessageIdIdempotency, logger });
    const translate = (record: unknown, eventId: string) =>
      translateSesEvent(record, eventId, {
        mapEngagement: settings.MapEngagementEventsAsDelivered,
        source: settings.Source,
      });

    async function notification(envelope: SnsEnvelope, logger: Logger) {
      let record: unknown;
      try {
        record = JSON.parse(envelope.Message);
      } catch {
        record = undefined;
      }
      return reconcile([translate(record, envelope.MessageId)], logger);
    }

    async function subscription(envelope: SnsEnvelope, logger: Logger, signal: AbortSignal) {
      const refused = (reason: string) => {
        confirmations.refused += 1;
        logger.log({
          level: 'warn',
          eventId: ids.subscriptionConfirmationRefused,
          category,
          message: `An SNS subscription was not confirmed: ${reason}`,
          reason,
        });
        return emptyResult('subscription-confirmation', {
          outcome: reason === 'disabled' ? 'disabled' : 'failed',
          reason,
        });
      };
      if (!settings.EnableSnsSubscriptionConfirmation) return refused('disabled');
      const url = validSubscribeUrl(envelope.SubscribeURL, envelope);
      if (!url) return refused('subscribe-url-invalid');
      const answer = await client
        .confirm(url, { timeoutMs, signal })
        .catch(() => ({ confirmed: false, reason: 'client-error' }));
      if (!answer.confirmed) return refused(answer.reason ?? 'not-confirmed');
      confirmations.confirmed += 1;
      logger.log({
        level: 'info',
        eventId: ids.subscriptionConfirmed,
        category,
        message: 'An SNS subscription of an allowed topic was confirmed',
      });
      return emptyResult('subscription-confirmation', { outcome: 'confirmed' });
    }

    function unsubscribe(envelope: SnsEnvelope, logger: Logger) {
      if (!settings.EnableSnsUnsubscribeConfirmationObservation)
        return emptyResult('unsubscribe-confirmation', { outcome: 'not-observed', reason: 'disabled' });
      const valid = validSubscribeUrl(envelope.SubscribeURL, envelope) !== undefined;
      confirmations.unsubscribeObserved += 1;
      logger.log({
        level: 'warn',
        eventId: ids.unsubscribeConfirmationObserved,
        category,
        message: `An SNS unsubscribe confirmation was observed (subscribe URL ${valid ? 'valid' : 'invalid'}; never invoked): callbacks of this topic stop until it is subscribed again`,
        subscribeUrlValid: valid,
      });
      return emptyResult('unsubscribe-confirmation', {
        outcome: 'observed',
        reason: valid ? 'subscribe-url-valid' : 'subscribe-url-invalid',
      });
    }

    return {
      async handle(request) {
        const body = parseJsonBody(request.raw);
        if (!looksLikeEnvelope(body)) {
          if (verifying || !settings.AcceptRawSesEventPayloads) {
            throw new OperationError(
              verifying ? 'unauthenticated' : 'invalid-input',
              verifying ? callbackErrorCodes.unverifiedPayload : callbackErrorCodes.bodyInvalid,
              'The body is not an SNS envelope (raw SES events are accepted only with verification off and AcceptRawSesEventPayloads)',
            );
          }
          const items = batchItems(body, settings.MaxEventsPerRequest);
          return reconcile(
            items.map((item) => translate(item, rawEventId(item))),
            request.logger,
          );
        }
        let envelope: SnsEnvelope;
        if (verifying) {
          envelope = await verifySnsEnvelope(
            body,
            request.headers,
            settings,
            certificates,
            request.logger,
            request.signal,
            runtime.now(),
          );
          runtime.counters.verified += 1;
          await runtime.claimOnce(replay, ['sns', envelope.TopicArn, envelope.MessageId], request.logger, {
            message: 'An SNS envelope was delivered again inside the replay window: refused',
            answer: 'This SNS message was already received',
          });
        } else {
          if (!isRecord(body) || typeof body.MessageId !== 'string' || typeof body.Message !== 'string') {
            throw new OperationError(
              'invalid-input',
              callbackErrorCodes.bodyInvalid,
              'The SNS envelope is malformed',
            );
          }
          envelope = body as unknown as SnsEnvelope;
        }
        if (envelope.Type === 'Notification') return notification(envelope, request.logger);
        if (!verifying)
          return emptyResult(
            envelope.Type === 'SubscriptionConfirmation'
              ? 'subscription-confirmation'
              : 'unsubscribe-confirmation',
            { outcome: 'failed', reason: 'unverified' },
          );
        if (envelope.Type === 'SubscriptionConfirmation')
          return subscription(envelope, request.logger, request.signal);
        return unsubscribe(envelope, request.logger);
      },
      surface: () => sesSurface(settings, replay, confirmations, Boolean(extensions.confirmationClient)),
    };
  },
});
