import {
  BehaviorError,
  defineBehavior,
  restGet,
  restPost,
  restProfile,
  restResource,
  routeGroup,
  type ModuleDefinition,
} from '@corekit/abstractions';
import { z } from 'zod';

export const orderSchema = z.object({ id: z.string(), item: z.string(), quantity: z.number().int() });
type Order = z.infer<typeof orderSchema>;

/**
 * An in-memory `orders` module publishing its behaviors in three module styles: an explicit route group with a
 * CRUD resource (`/api/orders`, scope public-api, document `public`), a generated `read-only` shorthand profile
 * under `/v2/orders` (API major version 2) and an inline `restPost('/api/ping')`. Host configuration adds the
 * fourth style (see `restProfiles` below).
 */
export function restOrdersModule(): ModuleDefinition {
  const orders = new Map<string, Order & { internalNote?: string }>([
    ['o-1', { id: 'o-1', item: 'apple', quantity: 2, internalNote: 'never shown' }],
  ]);
  let next = 2;
  const find = (id: string) => {
    const order = orders.get(id);
    if (!order)
      throw new BehaviorError(
        'not-found',
        'ORDER_NOT_FOUND',
        `No order "${id}"; GET /api/orders lists them`,
        { orderId: id },
      );
    return order;
  };
  return {
    id: 'orders',
    version: '1.0.0',
    behaviors: [
      defineBehavior({
        id: 'orders.list',
        description: 'List orders, optionally of one item',
        input: z.object({ item: z.string().optional() }),
        output: z.array(orderSchema),
        handler: ({ item }) =>
          [...orders.values()].filter((order) => item === undefined || order.item === item),
      }),
      defineBehavior({
        id: 'orders.get',
        description: 'One order',
        input: z.object({ id: z.string() }),
        output: orderSchema,
        handler: ({ id }) => find(id),
      }),
      defineBehavior({
        id: 'orders.create',
        description: 'Create an order',
        input: z.object({ item: z.string().min(1), quantity: z.number().int().positive() }),
        output: orderSchema,
        handler: (input) => {
          const order = { id: `o-${next++}`, ...input };
          orders.set(order.id, order);
          return order;
        },
      }),
      defineBehavior({
        id: 'orders.update',
        description: 'Replace an order',
        input: z.object({ id: z.string(), item: z.string().min(1), quantity: z.number().int().positive() }),
        output: orderSchema,
        handler: (input) => {
          find(input.id);
          orders.set(input.id, input);
          return input;
        },
      }),
      defineBehavior({
        id: 'orders.remove',
        description: 'Delete an order',
        input: z.object({ id: z.string() }),
        output: z.void(),
        handler: ({ id }) => {
          find(id);
          orders.delete(id);
        },
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
