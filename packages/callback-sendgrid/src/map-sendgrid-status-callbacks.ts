import { createHash } from 'node:crypto';
import { OperationError } from '@corekit/abstractions';
import {
  assertBatchSize,
  callbackErrorCodes,
  headerValue,
  parseJsonBody,
  defineStatusCallbacks,
  type StatusCallbacksFunction,
  replaySurface,
  sendGridStatusMapping,
  type CallbackExtensions,
} from '@corekit/callback-kit';
import { sendGridCallbackEventIdNames, sendGridCallbackEventIds } from './sendgrid-event-ids';
import {
  sendGridCallbackOptionsSchema,
  type SendGridCallbackOptions,
  type SendGridCallbackOptionsInput,
} from './sendgrid-options';
import { checkSendGridSignature, sendGridPublicKey, signatureError } from './sendgrid-signature';
import { translateSendGridEvent } from './sendgrid-translate';

export const sendGridCallbackOperationId = 'tenant-governance.sendgrid-status-callback';
export const sendGridCallbackSurfaceId = 'tenant-invitation-delivery-sendgrid-status-callbacks';
const packageName = '@corekit/callback-sendgrid';
const category = 'tenant-governance.sendgrid-callback';

/**
 * Maps the SEND (SendGrid) event webhook: `POST /engine/tenant-invitations/delivery-status/sendgrid`
 * (configurable), a JSON array of events. With RequireSignedEventWebhook (default) the ECDSA signature over
 * timestamp + raw bytes is verified before anything is parsed, a verified request is claimed once in the
 * replay cache (409 after), and events already stored are skipped with DuplicateEvents. Needs
 * `addTenantGovernanceDelivery` first. Calling it twice is refused.
 */
export const mapSendGridStatusCallbacks: StatusCallbacksFunction<
  SendGridCallbackOptions,
  SendGridCallbackOptionsInput,
  CallbackExtensions
> = defineStatusCallbacks({
  providerKey: 'sendgrid',
  packageName,
  entry: 'mapSendGridStatusCallbacks',
  section: 'Engine:MultiTenancy:Governance:SendGridInvitationDelivery:AspNetCore',
  operationId: sendGridCallbackOperationId,
  surfaceId: sendGridCallbackSurfaceId,
  displayName: 'SendGrid delivery-status callbacks',
  summary: 'Receives SendGrid event webhook batches and reconciles invitation delivery statuses',
  description:
    'Body: the SendGrid event webhook JSON array. Signed webhooks are verified over the raw bytes before parsing.',
  schema: sendGridCallbackOptionsSchema as never,
  eventIds: {
    component: 'Tenant governance, SendGrid callbacks',
    ranges: [[4562, 4565]],
    names: sendGridCallbackEventIdNames,
  },
  category,
  requestLabel: 'A SendGrid callback',
  recordIds: {
    processed: sendGridCallbackEventIds.callbackProcessed,
    duplicate: sendGridCallbackEventIds.eventDuplicate,
    replayRefused: sendGridCallbackEventIds.replayRefused,
    signatureRefused: sendGridCallbackEventIds.signatureRefused,
  },
  implement: (runtime) => {
    const settings = runtime.options;
    const signed = settings.RequireSignedEventWebhook;
    const key = signed ? sendGridPublicKey(settings.SignedEventWebhookPublicKey!) : undefined;
    const replayEnabled = signed && settings.EnableSignedEventWebhookReplayProtection;
    const replay = replayEnabled
      ? runtime.openReplayGuard(
          'callback-sendgrid-replay',
          settings.SignedEventWebhookReplayRetentionSeconds,
          settings.SignedEventWebhookReplayCacheLimit,
        )
      : undefined;
    return {
      async handle(request) {
        if (key) {
          const check = checkSendGridSignature(
            request.raw,
            headerValue(request.headers, settings.SignedEventWebhookSignatureHeaderName),
            headerValue(request.headers, settings.SignedEventWebhookTimestampHeaderName),
            key,
            settings.SignedEventWebhookSignatureToleranceSeconds,
            runtime.now(),
          );
          if (check.outcome !== 'verified') {
            throw runtime.refuseSignature(request.logger, check.outcome, signatureError(check.outcome));
          }
          runtime.counters.verified += 1;
          // ECDSA signatures are malleable: the fingerprint is timestamp + body digest, not the signature.
          const digest = createHash('sha256').update(request.raw).digest('hex');
          await runtime.claimOnce(replay, ['sendgrid', check.timestamp, digest], request.logger, {
            message: 'A SendGrid callback replayed a verified request inside the replay window: refused',
            answer: 'This signed callback was already received',
          });
        }
        const body = parseJsonBody(request.raw);
        if (!Array.isArray(body)) {
          throw new OperationError(
            'invalid-input',
            callbackErrorCodes.bodyInvalid,
            'The SendGrid callback body must be a JSON array of events',
          );
        }
        assertBatchSize(body.length, settings.MaxEventsPerRequest);
        const events = body.map((event) =>
          translateSendGridEvent(event, {
            normalizeMessageId: settings.NormalizeProviderMessageIdFromSgMessageId,
            mapEngagement: settings.MapEngagementEventsAsDelivered,
            source: settings.Source,
          }),
        );
        return runtime.reconcileAndLog(events, {
          idempotency: settings.EnableEventWebhookEventIdIdempotency,
          logger: request.logger,
        });
      },
      surface: () => ({
        translation: {
          bodyShape: 'json-array-of-events',
          statusMapping: sendGridStatusMapping,
          eventIdField: 'sg_event_id',
          providerMessageIdNormalization: settings.NormalizeProviderMessageIdFromSgMessageId
            ? 'sg-message-id-before-first-dot'
            : 'sg-message-id-as-is',
          contextSource: 'custom-args',
        },
        signature: signed
          ? {
              configured: true,
              required: true,
              status: 'required',
              algorithm: 'ECDSA-P256-SHA256',
              signedContent: 'timestamp-header-then-raw-body-bytes',
              verifiedBeforeParsing: true,
              publicKeyConfigured: true,
              signatureHeaderName: settings.SignedEventWebhookSignatureHeaderName,
              timestampHeaderName: settings.SignedEventWebhookTimestampHeaderName,
              toleranceSeconds: settings.SignedEventWebhookSignatureToleranceSeconds,
              failureAnswer: 401,
            }
          : { configured: false, required: false, status: 'not-configured', publicKeyConfigured: false },
        replay: replaySurface(replay, 'reject-duplicate-verified-request', 'timestamp+sha256(raw-body)'),
        idempotency: {
          enabled: settings.EnableEventWebhookEventIdIdempotency,
          key: 'sendgrid:<sg_event_id>',
          diagnosticEventId: sendGridCallbackEventIds.eventDuplicate,
        },
      }),
    };
  },
});
