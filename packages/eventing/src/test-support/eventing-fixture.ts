import type { EngineBuilder, ModuleDefinition } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addEventing, declareEventing, type EventingOptionsInput, type SubscriptionExecutor } from '../index';

export const ordersModule: ModuleDefinition = { id: 'orders', version: '1.0.0' };

/** Declares channel `orders` (types order-placed, order-cancelled) and the given subscriptions on module `orders`. */
export function declareOrders(
  builder: EngineBuilder,
  executors: Record<string, SubscriptionExecutor | undefined>,
  extra: { eventTypes?: Record<string, string[]> } = {},
): void {
  builder.addModule(ordersModule);
  declareEventing(builder, {
    moduleId: 'orders',
    channels: [{ id: 'orders', eventTypes: ['order-placed', 'order-cancelled'] }],
    subscriptions: Object.entries(executors).map(([id, execute]) => ({
      id,
      channelId: 'orders',
      eventTypes: extra.eventTypes?.[id] ?? [],
      ...(execute ? { execute } : {}),
    })),
    publishers: [{ id: 'orders.api', channelIds: ['orders'] }],
  });
}

/** Builds an engine with the eventing pack, not started; `setup` runs before addEventing. */
export function buildEventing(
  options: EventingOptionsInput,
  setup: (builder: EngineBuilder) => void,
  configuration: Record<string, unknown> = {},
) {
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({ environment: {}, logger, configuration });
  setup(builder);
  const registration = addEventing(builder, options);
  const engine = builder.build();
  const publish = (body: unknown) => engine.operations.invoke('eventing.publish', { body });
  return { engine, logger, registration, publish };
}

/** Builds and starts an engine with the eventing pack; `setup` runs before addEventing. */
export async function startEventing(...args: Parameters<typeof buildEventing>) {
  const built = buildEventing(...args);
  await built.engine.start();
  return built;
}

/** Polls until `read` answers a truthy value (at most `attempts` × 10 ms). */
export async function eventually<T>(read: () => T | Promise<T>, attempts = 500): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const value = await read();
    if (value) return value;
    if (attempt >= attempts) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
