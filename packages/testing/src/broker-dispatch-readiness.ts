import type { CoreEngine } from '@corekit/engine-core';

/**
 * Checks what an engine reports about a core-managed subscription while its outbox lane sends to a broker
 * dispatcher (`dispatcherId`): the subscription's messages go only to the broker, so readiness
 * (`/engine/event-subscription-readiness`) and the `event-subscriptions` and `event-channels` surfaces say
 * provider-managed, broker dispatch on the dispatch runtime, never core-managed or process-local. Every
 * dispatcher package runs it after a publication reached its broker.
 */
export function expectBrokerDispatchReadiness(
  engine: CoreEngine,
  subscriptionId: string,
  dispatcherId: string,
): void {
  const path = `provider-managed/outbox/${dispatcherId}`;
  const readiness = engine.catalog('event-subscription-readiness')!.find(subscriptionId);
  expect(readiness).toMatchObject({
    subscriptionId,
    readinessState: 'runtime-bound',
    executionOwnership: 'provider-managed',
    executionMode: 'broker-dispatch',
    executionRuntimeId: 'eventing-dispatch',
    reasons: ['dispatch-provider-managed', 'subscription-executor-bypassed'],
    metadata: expect.objectContaining({ executionPath: path, dispatcherId }),
  });
  const surfaces = engine.technologySurfaces();
  const subscription = surfaces.find((surface) => surface.id === `event-subscriptions/${subscriptionId}`);
  expect(subscription?.metadata).toMatchObject({
    executionReadiness: 'runtime-bound',
    executionOwnership: 'provider-managed',
    executionPath: path,
  });
  const channel = surfaces.find(
    (surface) => surface.kind === 'event-channels' && surface.metadata.subscriptionIds !== undefined,
  );
  expect(channel?.metadata.executionPath).toBe(path);
  const [runtime] = engine.catalog('event-dispatch-runtimes')!.entries() as Array<{
    ownership: { executionOwnership: string; dispatcherId: string };
  }>;
  expect(runtime?.ownership).toMatchObject({ executionOwnership: 'provider-managed', dispatcherId });
}
