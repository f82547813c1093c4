/** The route that triggers publication (`EventPublicationResult.metadata.route`). */
export const publicationRoute = '/engine/event-publications';
/** Id of the pack's own publisher: the route trigger. */
export const routeTriggerPublisherId = 'eventing.route-trigger';

export const eventingErrorCodes = {
  publicationNotActive: 'EVENT_PUBLICATION_NOT_ACTIVE',
  channelNotFound: 'EVENT_CHANNEL_NOT_FOUND',
  eventTypeNotDeclared: 'EVENT_TYPE_NOT_DECLARED',
  payloadTooLarge: 'EVENT_PAYLOAD_TOO_LARGE',
  outboxFull: 'EVENT_OUTBOX_FULL',
  outboxUnavailable: 'EVENT_OUTBOX_UNAVAILABLE',
} as const;
