import { createHash } from 'node:crypto';
import {
  readDeliveryContext,
  isRecord,
  isSafeToken,
  mapSesEvent,
  observationEvent,
  ownProperty,
  type TranslatedEvent,
} from '@corekit/callback-kit';

const eventSection: Readonly<Record<string, string>> = {
  Send: 'send',
  Delivery: 'delivery',
  Bounce: 'bounce',
  Complaint: 'complaint',
  Reject: 'reject',
  'Rendering Failure': 'failure',
  DeliveryDelay: 'deliveryDelay',
};

/** A stable event id for a raw (unsigned, test-only) SES event: a digest of its JSON text. */
export function rawEventId(event: unknown): string {
  return `raw-${createHash('sha256').update(JSON.stringify(event)).digest('hex').slice(0, 32)}`;
}

function isoTime(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 40 || Number.isNaN(Date.parse(value))) return undefined;
  return new Date(Date.parse(value)).toISOString();
}

/**
 * Translates one SES event record (`eventType`, or `notificationType` of identity notifications) into an
 * observation with the given event id (the SNS MessageId). Context from `mail.tags` (one-element arrays),
 * provider message id `mail.messageId`. Recipients, diagnostic codes and feedback texts are never read.
 */
export function translateSesEvent(
  record: unknown,
  eventId: string,
  settings: { readonly mapEngagement: boolean; readonly source: string },
): TranslatedEvent {
  if (!isRecord(record) || !isSafeToken(eventId)) return { kind: 'skipped', reason: 'invalid-event' };
  const type = ownProperty(record, 'eventType') ?? ownProperty(record, 'notificationType');
  if (typeof type !== 'string') return { kind: 'skipped', reason: 'invalid-event', providerEventId: eventId };
  const bounceType = ownProperty(ownProperty(record, 'bounce'), 'bounceType');
  const mapped = mapSesEvent(type, bounceType, settings.mapEngagement);
  if ('skip' in mapped) return { kind: 'skipped', reason: mapped.skip, providerEventId: eventId };
  const mail = ownProperty(record, 'mail');
  const tags = ownProperty(mail, 'tags');
  const context = readDeliveryContext((name) => ownProperty(tags, name));
  if (!context) return { kind: 'skipped', reason: 'no-context', providerEventId: eventId };
  const messageId = ownProperty(mail, 'messageId');
  const section = eventSection[type];
  const observedAtUtc =
    (section ? isoTime(ownProperty(ownProperty(record, section), 'timestamp')) : undefined) ??
    isoTime(ownProperty(mail, 'timestamp'));
  const reason =
    type === 'Bounce' && typeof bounceType === 'string' && /^[A-Za-z]{1,20}$/.test(bounceType)
      ? `Bounce:${bounceType}`
      : type;
  return observationEvent('amazon-ses-sns', eventId, context, mapped.status, {
    providerMessageId: isSafeToken(messageId) ? messageId : undefined,
    observedAtUtc,
    reason,
    source: settings.source,
  });
}
