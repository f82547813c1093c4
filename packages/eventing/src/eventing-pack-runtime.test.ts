import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { EventingPackRuntime, emptyDispatchPass } from './eventing-pack-runtime';
import { eventPublicationRequestSchema } from './eventing-model';
import { eventingOptionsSchema, type EventingOptionsInput } from './eventing-options';
import { eventingRegistry } from './eventing-registry';
import { declareOrders } from './test-support/eventing-fixture';

/** A builder with the orders channel and one subscription, and the pack runtime on it (hooks registered). */
function runtimeOn(options: EventingOptionsInput, delivered: string[]) {
  const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
  declareOrders(builder, { billing: ({ message }) => void delivered.push(message.publicationId) });
  const settings = builder.configuration.bind('Engine:Eventing', eventingOptionsSchema, options);
  const runtime = new EventingPackRuntime(builder, settings, eventingRegistry(builder));
  builder.addLifecycleHooks(runtime.lifecycleHooks());
  return { builder, runtime };
}

const placed = (id: string) =>
  eventPublicationRequestSchema.parse({ id, channelId: 'orders', eventType: 'order-placed', payload: {} });

describe('EventingPackRuntime', () => {
  it('does nothing on a dispatch pass before the engine starts, and names no outbox yet', async () => {
    const { runtime } = runtimeOn({ Outbox: { Enabled: true } }, []);
    await expect(runtime.dispatchPass(new AbortController().signal)).resolves.toEqual(emptyDispatchPass);
    const [dispatch] = runtime.catalogSources().dispatchRuntimes();
    expect(dispatch.ownership).toEqual({
      executionOwnership: 'core-managed',
      dispatcherId: 'in-process-subscriptions',
      outboxProvider: 'not-started',
    });
    expect(runtimeOn({}, []).runtime.catalogSources().dispatchRuntimes()).toEqual([]);
  });

  it('stages on the embedded outbox once started and delivers on the next dispatch pass', async () => {
    const delivered: string[] = [];
    const { builder, runtime } = runtimeOn({ Outbox: { Enabled: true } }, delivered);
    const engine = builder.build();
    await engine.start();
    try {
      expect(runtime.catalogSources().readiness()).toEqual([
        expect.objectContaining({ subscriptionId: 'billing', readinessState: 'runtime-bound' }),
      ]);
      await runtime.publish(placed('p-1'));
      expect(delivered).toEqual([]);
      const pass = await runtime.dispatchPass(new AbortController().signal);
      expect(pass).toMatchObject({ claimed: 1, succeeded: 1, failed: 0 });
      expect(delivered).toEqual(['p-1']);
      expect(runtime.catalogSources().dispatchRuntimes()[0].ownership.outboxProvider).not.toBe('not-started');
    } finally {
      await engine.stop();
    }
    await expect(runtime.dispatchPass(new AbortController().signal)).resolves.toEqual(emptyDispatchPass);
  });

  it('runs the subscriptions before the answer without the outbox lane', async () => {
    const delivered: string[] = [];
    const { builder, runtime } = runtimeOn({}, delivered);
    const engine = builder.build();
    await engine.start();
    try {
      await runtime.publish(placed('p-2'));
      expect(delivered).toEqual(['p-2']);
    } finally {
      await engine.stop();
    }
  });
});
