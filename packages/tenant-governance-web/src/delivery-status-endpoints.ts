import { defineOperation, OperationError } from '@corekit/abstractions';
import {
  attentionRemediation,
  deliveryObservationInputSchema,
  deliveryObservationQuerySchema,
  invitationDeliveryStatusKey,
  type AttentionCategory,
} from '@corekit/tenant-governance';
import { z } from 'zod';
import type { CallbackReplayGuard } from './callback-replay-guard';
import {
  verifyCallbackSignature,
  type CallbackSignatureSettings,
  type VerifiedCallbackSignature,
} from './callback-signature';
import { authorizationOf, type EndpointPlan } from './endpoint-plan';
import { authorizedTenant, callbackResource, observationsResource } from './tenant-resource';
import { governanceWebEventIds } from './web-event-ids';

const tags = ['Tenant governance'];

/**
 * The normalized `TenantInvitationDeliveryStatusCallbackRequest`: `observations`, 1 to
 * `…MaxEventsPerRequest` items, each a normalized observation (providerKey, providerEventId, tenantId,
 * invitationId, status, optional channel, senderId, providerMessageId, observedAtUtc, reason, source).
 * Strict: an unknown field anywhere refuses the whole request before anything is recorded.
 */
export const deliveryStatusCallbackRequestSchema = z.strictObject({
  observations: z.array(deliveryObservationInputSchema).min(1),
});

/**
 * Answer of the callback: aggregate counts and one outcome per event (`reconciled`,
 * `recorded-precedence-kept`, `duplicate`, `unknown-invitation`, `provider-message-mismatch`), with the
 * invitation's reconciled status after it. Never a recipient, a provider message id or the raw payload.
 */
export const deliveryStatusCallbackResponseSchema = z.object({
  accepted: z.number().int(),
  duplicateEvents: z.number().int(),
  rejected: z.number().int(),
  unknownInvitations: z.number().int(),
  providerMessageMatchRequired: z.boolean(),
  signatureVerified: z.boolean(),
  events: z.array(
    z.object({
      index: z.number().int(),
      observationId: z.string().nullable(),
      outcome: z.string(),
      reconciledStatus: z.string().nullable(),
    }),
  ),
});

/** What the callback operation needs beyond its plan. */
export interface CallbackEndpointSettings {
  readonly plan: EndpointPlan;
  readonly maxEventsPerRequest: number;
  readonly requireProviderMessageMatch: boolean;
  /** Null when no signing secret is configured (the callback then relies on authorization alone). */
  readonly signature: CallbackSignatureSettings | null;
  /** Null when replay protection is off or nothing is signed. */
  readonly replay: CallbackReplayGuard | null;
  readonly now: () => Date;
}

function parseBody(raw: Buffer, maxEvents: number): z.output<typeof deliveryStatusCallbackRequestSchema> {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new OperationError('invalid-input', 'CALLBACK_BODY_INVALID', 'The callback body is not valid JSON');
  }
  const count = (json as { observations?: unknown } | null)?.observations;
  if (Array.isArray(count) && count.length > maxEvents) {
    throw new OperationError(
      'too-large',
      'CALLBACK_TOO_MANY_EVENTS',
      `The callback holds ${count.length} observations; at most ${maxEvents} are accepted per request`,
    );
  }
  const parsed = deliveryStatusCallbackRequestSchema.safeParse(json);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
    throw new OperationError(
      'invalid-input',
      'CALLBACK_BODY_INVALID',
      `The callback body does not match TenantInvitationDeliveryStatusCallbackRequest: ${errors
        .map((error) => `${error.path}: ${error.message}`)
        .join('; ')}`,
      { errors },
    );
  }
  return parsed.data;
}

/**
 * `POST /engine/tenant-invitations/delivery-status`: the signature (when a secret is configured) is checked
 * on the exact bytes before anything is parsed, then the body is validated whole, the signed fingerprint is
 * claimed against replays, and the observations go to the reconciler. An unknown invitation is answered
 * 200 with the event outcome `unknown-invitation` (see the README on enumeration).
 */
export function deliveryStatusCallbackOperation(settings: CallbackEndpointSettings) {
  const { plan } = settings;
  return defineOperation({
    id: plan.operationId,
    method: 'POST',
    path: plan.routePattern,
    summary: 'Submit normalized invitation delivery-status observations',
    description:
      'Body TenantInvitationDeliveryStatusCallbackRequest { observations: [...] }. With a signing secret configured the request must carry the signature (v1=<hex> HMAC-SHA256 over {unixTimestamp}.{rawBody}), timestamp and key-id headers.',
    tags,
    body: deliveryStatusCallbackRequestSchema,
    result: deliveryStatusCallbackResponseSchema,
    errors: {
      'invalid-input': 'the body is not JSON or does not match the request (CALLBACK_BODY_INVALID)',
      unauthenticated: 'no accepted credentials, or the signature is missing, malformed, stale or invalid',
      forbidden: 'the host refused the named policy or the all-tenants resource (tenantId `*`)',
      replay: 'CALLBACK_REPLAYED: the same signed callback arrived inside the replay window',
      'too-large': 'the body is over the limit, or CALLBACK_TOO_MANY_EVENTS',
      unavailable: 'CALLBACK_REPLAY_CACHE_FULL',
    },
    authorization: authorizationOf(plan),
    authorizationResource: callbackResource,
    rawBody: true,
    maxBodyBytes: plan.maxRequestBodyBytes ?? undefined,
    excludeFromDescription: plan.excludedFromDescription,
    async handler(_input, context) {
      const status = context.engine.resolve(invitationDeliveryStatusKey);
      if (!status) {
        throw new OperationError(
          'unavailable',
          'GOVERNANCE_NOT_REGISTERED',
          'Invitation delivery is not registered',
        );
      }
      const raw = context.rawBody ?? Buffer.alloc(0);
      const refused = (eventId: number, error: unknown) => {
        context.logger.log({
          level: 'warn',
          eventId,
          category: 'tenant-governance-web',
          message: `Delivery-status callback refused: ${(error as { code?: string }).code ?? 'error'}`,
        });
        return error;
      };
      let verified: VerifiedCallbackSignature | null = null;
      if (settings.signature) {
        try {
          verified = verifyCallbackSignature(
            settings.signature,
            context.headers,
            raw,
            settings.now().getTime(),
          );
        } catch (error) {
          throw refused(governanceWebEventIds.callbackSignatureRefused, error);
        }
      }
      const body = parseBody(raw, settings.maxEventsPerRequest);
      const observations = body.observations.map((item) => ({ source: 'delivery-status-callback', ...item }));
      if (verified && settings.replay) {
        try {
          await settings.replay.claim(verified.fingerprint, verified.timestamp);
        } catch (error) {
          throw refused(governanceWebEventIds.callbackReplayRefused, error);
        }
      }
      let result;
      try {
        result = await status.submit(observations, {
          requireProviderMessageMatch: settings.requireProviderMessageMatch,
        });
      } catch (error) {
        if (verified && settings.replay) await settings.replay.release(verified.fingerprint);
        throw error;
      }
      return {
        accepted: result.accepted,
        duplicateEvents: result.duplicateEvents,
        rejected: result.rejected,
        unknownInvitations: result.outcomes.filter((item) => item.outcome === 'unknown-invitation').length,
        providerMessageMatchRequired: settings.requireProviderMessageMatch,
        signatureVerified: verified !== null,
        events: result.outcomes.map((item) => ({
          index: item.index,
          observationId: item.observationId,
          outcome: item.outcome,
          reconciledStatus: item.reconciledStatus ?? null,
        })),
      };
    },
  });
}

/** The observation read's answer: the reconciler's query result plus the limit it applied. */
export const observationReadResponseSchema = z.looseObject({
  observations: z.array(z.looseObject({ observationId: z.string() })),
  totalMatched: z.number().int(),
  truncated: z.boolean(),
  rollups: z.looseObject({}),
  attention: z.array(z.looseObject({ category: z.string() })),
  limit: z.number().int(),
  requestedLimit: z.number().int().nullable(),
  defaultLimit: z.number().int(),
  maxLimit: z.number().int(),
  limitClamped: z.boolean(),
  remediationHints: z.record(z.string(), z.object({ hint: z.string(), actions: z.array(z.string()) })),
});

/**
 * `GET /engine/tenant-invitations/delivery-status/observations`: filters tenantId, invitationId,
 * providerKey, status, providerMessageId (provider-message drill-down), fromUtc/toUtc, attentionCategory
 * (attention drill-down), remediationAction; `limit` defaults to `…DefaultLimit`, and a larger one than
 * `…MaxLimit` is clamped (`limitClamped: true`, `requestedLimit` kept). Rollups count every match.
 */
export function observationReadOperation(plan: EndpointPlan, defaultLimit: number, maxLimit: number) {
  return defineOperation({
    id: plan.operationId,
    method: 'GET',
    path: plan.routePattern,
    summary: 'Read invitation delivery-status observations with rollups and attention drill-downs',
    tags,
    query: deliveryObservationQuerySchema,
    result: observationReadResponseSchema,
    errors: {
      'invalid-input':
        'an unknown or malformed filter; TENANT_ID_INVALID (a tenantId that is not one identifier)',
      unauthenticated: 'no credentials the host accepts',
      forbidden:
        'the host refused the named policy or this tenant (resource.tenantId; `*` without a tenantId filter)',
    },
    authorization: authorizationOf(plan),
    authorizationResource: observationsResource,
    excludeFromDescription: plan.excludedFromDescription,
    async handler({ query: filters }, context) {
      // Only the tenant the authorizer allowed; without a tenantId filter the resource was every tenant.
      const query = { ...filters, tenantId: authorizedTenant(context) ?? undefined };
      const status = context.engine.resolve(invitationDeliveryStatusKey);
      if (!status) {
        throw new OperationError(
          'unavailable',
          'GOVERNANCE_NOT_REGISTERED',
          'Invitation delivery is not registered',
        );
      }
      const requested = query.limit ?? null;
      const limit = Math.min(requested ?? defaultLimit, maxLimit);
      const result = await status.query({ ...query, limit });
      const categories = new Set<AttentionCategory>([
        ...result.attention.map((item) => item.category),
        ...(query.attentionCategory ? [query.attentionCategory] : []),
      ]);
      const answer = {
        ...result,
        limit,
        requestedLimit: requested,
        defaultLimit,
        maxLimit,
        limitClamped: requested !== null && requested > maxLimit,
        remediationHints: Object.fromEntries(
          [...categories].map((category) => [
            category,
            {
              hint: attentionRemediation[category].hint,
              actions: [...attentionRemediation[category].actions],
            },
          ]),
        ),
      };
      return answer as unknown as z.input<typeof observationReadResponseSchema>;
    },
  });
}
