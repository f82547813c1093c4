import {
  defineBehavior,
  restGet,
  restPost,
  restProfile,
  restResource,
  routeGroup,
  type ModuleDefinition,
} from '@corekit/abstractions';
import { z } from 'zod';
import { orderBehaviors } from '../../../rest-publication/src/test-support/rest-test-fixtures';

/**
 * An in-memory `orders` module publishing its behaviors in three module styles: an explicit route group with a
 * CRUD resource (`/api/orders`, scope public-api, document `public`), a generated `read-only` shorthand profile
 * under `/v2/orders` (API major version 2) and an inline `restPost('/api/ping')`. Host configuration adds the
 * fourth style (see `restProfiles` below). The order behaviors are the engine's REST test fixture's.
 */
export function restOrdersModule(): ModuleDefinition {
  return {
    id: 'orders',
    version: '1.0.0',
    behaviors: [
      ...orderBehaviors({
        listDescription: 'List orders, optionally of one item',
        notFoundHint: '; GET /api/orders lists them',
        internalNote: 'never shown',
        strictRemove: true,
      }),
      defineBehavior({
        id: 'ping',
        description: 'Echo',
        input: z.object({ echo: z.string().default('pong') }),
        output: z.object({ answer: z.string() }),
        handler: ({ echo }) => ({ answer: echo }),
      }),
    ],
    rest: [
      routeGroup('/api', { scopes: ['public-api'], tags: ['Orders'], documents: ['public'] }, [
        restResource('orders', {
          list: 'orders.list',
          get: 'orders.get',
          create: 'orders.create',
          update: 'orders.update',
          remove: 'orders.remove',
        }),
      ]),
      restProfile('read-only', 'orders', { prefix: '/v2/orders', version: 2 }),
      restPost('/api/ping', 'ping'),
    ],
  };
}

/** `Engine:Rest` with the fourth style: a profile mapping `partner` (API major version 3, document `partner`). */
export const restProfiles = {
  Profiles: {
    partner: {
      Prefix: '/partner',
      Version: 3,
      Documents: ['partner'],
      Routes: [{ Behavior: 'orders.get', Method: 'GET', Path: '/orders/:id' }],
    },
  },
};

/** A second module whose one route the host suppresses in some tests. */
export function restStatusModule(path = '/status'): ModuleDefinition {
  return {
    id: 'status',
    version: '1.0.0',
    behaviors: [
      defineBehavior({
        id: 'status.read',
        input: z.object({}),
        output: z.object({ ok: z.boolean() }),
        handler: () => ({ ok: true }),
      }),
    ],
    rest: [restGet(path, 'status.read')],
  };
}
