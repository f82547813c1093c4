import { OperationError } from '@corekit/abstractions';
import {
  batchItems,
  callbackErrorCodes,
  isRecord,
  parseJsonBody,
  defineStatusCallbacks,
  type StatusCallbacksFunction,
  replaySurface,
  type CallbackExtensions,
} from '@corekit/callback-kit';
import { mailgunCallbackEventIdNames, mailgunCallbackEventIds } from './mailgun-event-ids';
import {
  mailgunCallbackOptionsSchema,
  type MailgunCallbackOptions,
  type MailgunCallbackOptionsInput,
} from './mailgun-options';
import { checkMailgunSignature, mailgunSignatureError } from './mailgun-signature';
import { translateMailgunItem } from './mailgun-translate';

export const mailgunCallbackOperationId = 'tenant-governance.mailgun-status-callback';
export const mailgunCallbackSurfaceId = 'tenant-invitation-delivery-mailgun-status-callbacks';
const category = 'tenant-governance.mailgun-callback';

/**
 * Maps the MSG (Mailgun) webhook: `POST /engine/tenant-invitations/delivery-status/mailgun` (configurable), one
 * webhook object or an array of them. With RequireSignedWebhook (default) every item's HMAC signature must
 * verify (401 otherwise), no two items may share a token (401 CALLBACK_SIGNATURE_TOKEN_REPEATED), and each
 * token is claimed once (409 after); duplicate event ids are skipped before
 * reconciliation. Needs `addTenantGovernanceDelivery` first; calling it twice is refused.
 */
export const mapMailgunStatusCallbacks: StatusCallbacksFunction<
  MailgunCallbackOptions,
  MailgunCallbackOptionsInput,
  CallbackExtensions
> = defineStatusCallbacks({
  providerKey: 'mailgun',
  packageName: '@corekit/callback-mailgun',
  entry: 'mapMailgunStatusCallbacks',
  section: 'Engine:MultiTenancy:Governance:MailgunInvitationDelivery:AspNetCore',
  operationId: mailgunCallbackOperationId,
  surfaceId: mailgunCallbackSurfaceId,
  displayName: 'Mailgun delivery-status callbacks',
  summary: 'Receives Mailgun webhooks and reconciles invitation delivery statuses',
  description: 'Body: one Mailgun webhook JSON object ({ signature, "event-data" }) or an array of them.',
  schema: mailgunCallbackOptionsSchema as never,
  eventIds: {
    component: 'Tenant governance, Mailgun callbacks',
    ranges: [[4568, 4571]],
    names: mailgunCallbackEventIdNames,
  },
  category,
  requestLabel: 'A Mailgun callback',
  recordIds: {
    processed: mailgunCallbackEventIds.callbackProcessed,
    duplicate: mailgunCallbackEventIds.eventDuplicate,
    replayRefused: mailgunCallbackEventIds.replayRefused,
    signatureRefused: mailgunCallbackEventIds.signatureRefused,
  },
  implement: (runtime) => {
    const settings = runtime.options;
    const key = settings.RequireSignedWebhook ? settings.WebhookSigningKey! : undefined;
    const replay =
      key && settings.EnableSignedWebhookReplayProtection
        ? runtime.openReplayGuard(
            'callback-mailgun-replay',
            settings.SignedWebhookReplayRetentionSeconds,
            settings.SignedWebhookReplayCacheLimit,
          )
        : undefined;
    return {
      async handle(request) {
        const body = parseJsonBody(request.raw);
        if (!isRecord(body) && !Array.isArray(body)) {
          throw new OperationError(
            'invalid-input',
            callbackErrorCodes.bodyInvalid,
            'The Mailgun callback body must be a webhook object or an array of them',
          );
        }
        const items = batchItems(body, settings.MaxEventsPerRequest);
        if (key) {
          // An empty array carries no signature at all: nothing is verified, so it is refused as missing.
          if (items.length === 0) throw mailgunSignatureError('missing');
          const tokens: string[] = [];
          for (const item of items) {
            const check = checkMailgunSignature(
              item,
              key,
              settings.SignedWebhookSignatureToleranceSeconds,
              runtime.now(),
              settings.AcceptParentSignature,
            );
            if (check.outcome !== 'verified') {
              throw runtime.refuseSignature(
                request.logger,
                check.outcome,
                mailgunSignatureError(check.outcome),
              );
            }
            // The provider signs timestamp + token only, one webhook per event: a token carried by two items
            // means one captured signature is being spent on events it never covered.
            if (tokens.includes(check.token)) {
              throw runtime.refuseSignature(
                request.logger,
                'token repeated',
                new OperationError(
                  'unauthenticated',
                  callbackErrorCodes.signatureTokenRepeated,
                  'Two items of the Mailgun callback carry the same signature token: each event needs its own signed webhook',
                ),
              );
            }
            tokens.push(check.token);
          }
          runtime.counters.verified += 1;
          for (const token of tokens) {
            await runtime.claimOnce(replay, ['mailgun', token], request.logger, {
              message: 'A Mailgun callback reused a webhook token inside the replay window: refused',
              answer: 'This signed webhook token was already used',
            });
          }
        }
        const events = items.map((item) =>
          translateMailgunItem(item, {
            wrapMessageId: settings.NormalizeProviderMessageIdWithAngleBrackets,
            mapEngagement: settings.MapEngagementEventsAsDelivered,
            source: settings.Source,
          }),
        );
        return runtime.reconcileAndLog(events, {
          idempotency: settings.EnableWebhookEventIdIdempotency,
          logger: request.logger,
        });
      },
      surface: () => ({
        translation: {
          bodyShape: 'json-object-or-array',
          statusMapping: {
            accepted: 'accepted',
            delivered: 'delivered',
            'failed/temporary': 'deferred',
            'failed/permanent': 'bounced',
            failed: 'failed',
            complained: 'suppressed',
            unsubscribed: 'suppressed',
            opened: 'engagement',
            clicked: 'engagement',
          },
          eventIdField: 'event-data.id',
          providerMessageIdNormalization: settings.NormalizeProviderMessageIdWithAngleBrackets
            ? 'message-id-header-in-angle-brackets'
            : 'message-id-header-as-is',
          contextSource: 'user-variables',
        },
        signature: key
          ? {
              configured: true,
              required: true,
              status: 'required',
              algorithm: 'HMAC-SHA256',
              signedContent: 'timestamp+token',
              comparison: 'constant-time',
              signingKeyConfigured: true,
              toleranceSeconds: settings.SignedWebhookSignatureToleranceSeconds,
              acceptParentSignature: settings.AcceptParentSignature,
              failureAnswer: 401,
            }
          : {
              configured: false,
              required: false,
              status: 'not-configured',
              signingKeyConfigured: settings.WebhookSigningKey !== undefined,
              acceptParentSignature: settings.AcceptParentSignature,
            },
        replay: replaySurface(replay, 'reject-reused-webhook-token', 'token'),
        idempotency: {
          enabled: settings.EnableWebhookEventIdIdempotency,
          key: 'mailgun:<event-data.id>',
          diagnosticEventId: mailgunCallbackEventIds.eventDuplicate,
        },
      }),
    };
  },
});
