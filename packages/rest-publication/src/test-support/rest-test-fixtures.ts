import {
  BehaviorError,
  defineBehavior,
  type ModuleDefinition,
  type RestDeclaration,
} from '@corekit/abstractions';
import { z } from 'zod';
import { createEngineBuilder, createMemoryLogger, manualClock } from '@corekit/engine-core';
import { addRestPublication } from '../add-rest-publication';

/** Test-only: an in-memory orders module with the five CRUD behaviors (`orders.list` ... `orders.remove`). */
export const orderSchema = z.object({ id: z.string(), item: z.string(), quantity: z.number().int() });

/** How the web host's tests vary the orders behaviors; the defaults are what the engine's tests use. */
export interface OrderBehaviorOptions {
  /** Description of `orders.list`; default `List orders`. */
  readonly listDescription?: string;
  /** Appended to the ORDER_NOT_FOUND message (`; GET /api/orders lists them`). */
  readonly notFoundHint?: string;
  /** Stored on o-1 beside the declared fields; the output schema must keep it from every answer. */
  readonly internalNote?: string;
  /** `orders.remove` answers nothing and refuses an unknown id, instead of answering `{ removed }`. */
  readonly strictRemove?: boolean;
}

/**
 * The five CRUD behaviors over one in-memory map seeded with o-1 (apple, 2); shared by the engine's REST
 * tests and the web host's (`web-host/src/test-support/rest-orders-module.ts` imports this file by path).
 */
export function orderBehaviors(options: OrderBehaviorOptions = {}) {
  const orders = new Map<string, z.infer<typeof orderSchema> & { internalNote?: string }>([
    [
      'o-1',
      {
        id: 'o-1',
        item: 'apple',
        quantity: 2,
        ...(options.internalNote ? { internalNote: options.internalNote } : {}),
      },
    ],
  ]);
  let next = 2;
  const find = (id: string) => {
    const order = orders.get(id);
    if (!order)
      throw new BehaviorError(
        'not-found',
        'ORDER_NOT_FOUND',
        `No order "${id}"${options.notFoundHint ?? ''}`,
        {
          orderId: id,
        },
      );
    return order;
  };
  return [
    defineBehavior({
      id: 'orders.list',
      description: options.listDescription ?? 'List orders',
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
    options.strictRemove
      ? defineBehavior({
          id: 'orders.remove',
          description: 'Delete an order',
          input: z.object({ id: z.string() }),
          output: z.void(),
          handler: ({ id }) => {
            find(id);
            orders.delete(id);
          },
        })
      : defineBehavior({
          id: 'orders.remove',
          description: 'Delete an order',
          input: z.object({ id: z.string() }),
          output: z.object({ removed: z.boolean() }),
          handler: ({ id }) => ({ removed: orders.delete(id) }),
        }),
  ];
}

export function pingBehavior(restAuthoring?: Parameters<typeof defineBehavior>[0]['restAuthoring']) {
  return defineBehavior({
    id: 'ping',
    description: 'Answers pong',
    input: z.object({ echo: z.string().default('pong') }),
    output: z.object({ answer: z.string() }),
    handler: ({ echo }) => ({ answer: echo }),
    ...(restAuthoring ? { restAuthoring } : {}),
  });
}

/** A module `orders` with the order behaviors (plus `ping`) and the given REST declarations. */
export function ordersModule(
  rest: readonly RestDeclaration[],
  behaviors: NonNullable<ModuleDefinition['behaviors']> = [...orderBehaviors(), pingBehavior()],
): ModuleDefinition {
  return { id: 'orders', version: '1.0.0', behaviors, rest };
}

/** Builds an engine (manual clock, memory logger, nothing from disk or environment) from modules and `Engine:Rest`. */
export function buildWithRest(modules: readonly ModuleDefinition[], rest: Record<string, unknown> = {}) {
  const builder = createEngineBuilder({
    contentRoot: '/nonexistent',
    environment: {},
    clock: manualClock(),
    logger: createMemoryLogger(),
    configuration: { Engine: { Rest: rest } },
  });
  addRestPublication(builder);
  for (const module of modules) builder.addModule(module);
  return builder.build();
}

/** The entries of one catalog of a built engine. */
export function entriesOf<T = any>(engine: ReturnType<typeof buildWithRest>, catalogId: string): T[] {
  return engine.catalog(catalogId)!.entries() as T[];
}

/** The error `fn` throws (fails the test when it does not throw). */
export function thrown(fn: () => unknown): {
  code: string;
  message: string;
  details: Record<string, unknown>;
} {
  try {
    fn();
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error('expected an error, none was thrown');
}
