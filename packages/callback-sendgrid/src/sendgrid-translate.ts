import {
  readDeliveryContext,
  isRecord,
  isSafeToken,
  mapSendGridEvent,
  observationEvent,
  ownProperty,
  type TranslatedEvent,
} from '@corekit/callback-kit';
const reasonToken = /^[a-z_-]{1,40}$/;

/** The provider message id: the `sg_message_id` text before its first dot (X-Message-Id), or the whole id. */
export function sendGridProviderMessageId(sgMessageId: unknown, normalize: boolean): string | undefined {
  if (typeof sgMessageId !== 'string') return undefined;
  const id = normalize ? sgMessageId.split('.')[0]! : sgMessageId;
  return isSafeToken(id) ? id : undefined;
}

function observedAt(timestamp: unknown): string | undefined {
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return undefined;
  if (timestamp < 0 || timestamp > 32_503_680_000) return undefined;
  return new Date(Math.floor(timestamp) * 1000).toISOString();
}

/**
 * Translates one SEND event (an element of the webhook array) into an observation, or a skip: not an
 * object or no usable `sg_event_id` (invalid-event), an event the table skips (engagement, unmapped), or no
 * tenant and invitation context in the custom args (no-context). Only the event name, the bounce `type`
 * and ids are read: never the address, the reason text or the URL.
 */
export function translateSendGridEvent(
  event: unknown,
  settings: {
    readonly normalizeMessageId: boolean;
    readonly mapEngagement: boolean;
    readonly source: string;
  },
): TranslatedEvent {
  if (!isRecord(event)) return { kind: 'skipped', reason: 'invalid-event' };
  const eventId = ownProperty(event, 'sg_event_id');
  if (!isSafeToken(eventId)) return { kind: 'skipped', reason: 'invalid-event' };
  const name = ownProperty(event, 'event');
  if (typeof name !== 'string') return { kind: 'skipped', reason: 'invalid-event', providerEventId: eventId };
  const mapped = mapSendGridEvent(name, settings.mapEngagement);
  if ('skip' in mapped) return { kind: 'skipped', reason: mapped.skip, providerEventId: eventId };
  const context = readDeliveryContext((key) => ownProperty(event, key));
  if (!context) return { kind: 'skipped', reason: 'no-context', providerEventId: eventId };
  const providerMessageId = sendGridProviderMessageId(
    ownProperty(event, 'sg_message_id'),
    settings.normalizeMessageId,
  );
  const type = ownProperty(event, 'type');
  return observationEvent('sendgrid', eventId, context, mapped.status, {
    providerMessageId,
    observedAtUtc: observedAt(ownProperty(event, 'timestamp')),
    reason: typeof type === 'string' && reasonToken.test(type) ? `${name}:${type}` : name,
    source: settings.source,
  });
}
