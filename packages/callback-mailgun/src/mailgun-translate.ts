import {
  readDeliveryContext,
  isRecord,
  isSafeToken,
  mapMailgunEvent,
  observationEvent,
  ownProperty,
  type TranslatedEvent,
} from '@corekit/callback-kit';

/** The provider message id from `message.headers["message-id"]`, wrapped in `<…>` by default (as the send API answers it). */
export function mailgunProviderMessageId(value: unknown, wrap: boolean): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 196) return undefined;
  const bare = value.startsWith('<') && value.endsWith('>') ? value.slice(1, -1) : value;
  const id = wrap ? `<${bare}>` : bare;
  return isSafeToken(id) && bare.length > 0 ? id : undefined;
}

function observedAt(timestamp: unknown): string | undefined {
  if (
    typeof timestamp !== 'number' ||
    !Number.isFinite(timestamp) ||
    timestamp < 0 ||
    timestamp > 32_503_680_000
  )
    return undefined;
  return new Date(Math.floor(timestamp * 1000)).toISOString();
}

/**
 * Translates one MSG webhook item (`{ signature, "event-data" }`): the event id is `event-data.id`, the status
 * the spec 3 table (failed by severity), the context the user variables. Reads neither the recipient nor
 * the reason text nor the delivery-status message.
 */
export function translateMailgunItem(
  item: unknown,
  settings: { readonly wrapMessageId: boolean; readonly mapEngagement: boolean; readonly source: string },
): TranslatedEvent {
  const data = ownProperty(item, 'event-data');
  if (!isRecord(data)) return { kind: 'skipped', reason: 'invalid-event' };
  const eventId = ownProperty(data, 'id');
  if (!isSafeToken(eventId)) return { kind: 'skipped', reason: 'invalid-event' };
  const name = ownProperty(data, 'event');
  if (typeof name !== 'string') return { kind: 'skipped', reason: 'invalid-event', providerEventId: eventId };
  const severity = ownProperty(data, 'severity');
  const mapped = mapMailgunEvent(name, severity, settings.mapEngagement);
  if ('skip' in mapped) return { kind: 'skipped', reason: mapped.skip, providerEventId: eventId };
  const variables = ownProperty(data, 'user-variables');
  const context = readDeliveryContext((key) => ownProperty(variables, key));
  if (!context) return { kind: 'skipped', reason: 'no-context', providerEventId: eventId };
  const headers = ownProperty(ownProperty(data, 'message'), 'headers');
  const providerMessageId = mailgunProviderMessageId(
    ownProperty(headers, 'message-id'),
    settings.wrapMessageId,
  );
  return observationEvent('mailgun', eventId, context, mapped.status, {
    providerMessageId,
    observedAtUtc: observedAt(ownProperty(data, 'timestamp')),
    reason:
      name === 'failed' && (severity === 'temporary' || severity === 'permanent')
        ? `failed:${severity}`
        : name,
    source: settings.source,
  });
}
