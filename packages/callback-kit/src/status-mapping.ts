import type { DeliveryStatus } from '@corekit/tenant-governance';

/**
 * The spec 3 mapping of provider events to normalized statuses. A `skip` carries why: `engagement` (open,
 * click and the like, mapped to delivered only with MapEngagementEventsAsDelivered) or `unmapped` (an event
 * the table does not list: group_resubscribe, rejected, Subscription...). This is a mapping, not a lifecycle:
 * precedence between statuses is the reconciler's.
 */
export type MappedStatus = { readonly status: DeliveryStatus } | { readonly skip: 'engagement' | 'unmapped' };

function engagement(mapEngagement: boolean): MappedStatus {
  return mapEngagement ? { status: 'delivered' } : { skip: 'engagement' };
}

const sendGridTable: Readonly<Record<string, DeliveryStatus>> = {
  processed: 'accepted',
  delivered: 'delivered',
  deferred: 'deferred',
  bounce: 'bounced',
  dropped: 'suppressed',
  spamreport: 'suppressed',
  unsubscribe: 'suppressed',
  group_unsubscribe: 'suppressed',
};

/** The SEND table as the callback surface reports it: engagement events as `engagement`. */
export const sendGridStatusMapping: Readonly<Record<string, DeliveryStatus | 'engagement'>> = {
  ...sendGridTable,
  open: 'engagement',
  click: 'engagement',
};

/** SEND (SendGrid) `event` values. */
export function mapSendGridEvent(event: string, mapEngagement = false): MappedStatus {
  if (Object.hasOwn(sendGridTable, event)) return { status: sendGridTable[event]! };
  if (event === 'open' || event === 'click') return engagement(mapEngagement);
  return { skip: 'unmapped' };
}

/** MSG (Mailgun) `event` values; `severity` matters for `failed` only. */
export function mapMailgunEvent(event: string, severity: unknown, mapEngagement = false): MappedStatus {
  switch (event) {
    case 'accepted':
      return { status: 'accepted' };
    case 'delivered':
      return { status: 'delivered' };
    case 'failed':
      if (severity === 'temporary') return { status: 'deferred' };
      if (severity === 'permanent') return { status: 'bounced' };
      return { status: 'failed' };
    case 'complained':
    case 'unsubscribed':
      return { status: 'suppressed' };
    case 'opened':
    case 'clicked':
      return engagement(mapEngagement);
    default:
      return { skip: 'unmapped' };
  }
}

/** CLOUD (Amazon SES) `eventType` values; `bounceType` matters for `Bounce` only. */
export function mapSesEvent(eventType: string, bounceType: unknown, mapEngagement = false): MappedStatus {
  switch (eventType) {
    case 'Send':
      return { status: 'accepted' };
    case 'Delivery':
      return { status: 'delivered' };
    case 'Bounce':
      return bounceType === 'Transient' ? { status: 'deferred' } : { status: 'bounced' };
    case 'Complaint':
    case 'Reject':
      return { status: 'suppressed' };
    case 'Rendering Failure':
      return { status: 'failed' };
    case 'DeliveryDelay':
      return { status: 'deferred' };
    case 'Open':
    case 'Click':
      return engagement(mapEngagement);
    default:
      // Subscription and anything new: skipped by default.
      return { skip: 'unmapped' };
  }
}
