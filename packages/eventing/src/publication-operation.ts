import { defineOperation } from '@corekit/abstractions';
import { eventingErrorCodes, publicationRoute } from './eventing-constants';
import { eventPublicationRequestSchema, eventPublicationResultSchema } from './eventing-model';
import type { EventingPackRuntime } from './eventing-pack-runtime';

/** `kind` of the authorization resource of a publication: `{ kind, tenantId }` (the body's `tenantId`). */
export const eventPublicationResourceKind = 'event-publication';

/**
 * `POST /engine/event-publications`: the route publisher, answered by the pack runtime. It acts on the tenant its
 * body names (`tenantId`), so a host scoping credentials to tenants decides per tenant, on REST and on every
 * transport that serves it (docs/adr/0001-one-callable.md).
 */
export function publicationOperation(runtime: Pick<EventingPackRuntime, 'publish'>) {
  return defineOperation({
    id: 'eventing.publish',
    method: 'POST',
    path: publicationRoute,
    summary: 'Publish an event: run matching subscriptions, or stage it in the outbox',
    description:
      'Triggers the route publisher. Without the outbox lane the matching in-process subscriptions run before the answer; with it, accepted means staged for later dispatch.',
    tags: ['eventing'],
    body: eventPublicationRequestSchema,
    result: eventPublicationResultSchema,
    errors: {
      'invalid-input':
        'the body is not a publication request, or the event type is not declared on the channel',
      'not-active': `publication is disabled (${eventingErrorCodes.publicationNotActive})`,
      'not-found': `the channel is not registered (${eventingErrorCodes.channelNotFound})`,
      'too-large': `the payload exceeds MaxPayloadBytes (${eventingErrorCodes.payloadTooLarge})`,
      unavailable: `the outbox cannot stage now (${eventingErrorCodes.outboxFull})`,
    },
    owner: '@corekit/eventing',
    authorizationResource: ({ body }) => {
      const tenantId = (body as { tenantId?: unknown } | undefined)?.tenantId;
      return typeof tenantId === 'string' && tenantId !== ''
        ? { kind: eventPublicationResourceKind, tenantId }
        : { kind: eventPublicationResourceKind };
    },
    handler: ({ body }) => runtime.publish(body),
  });
}
