// The sample host's eventing demo: it builds, stages, and dispatches to both subscriptions.
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addEventingDemo } from './eventing-demo';

async function eventually(read: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !read(); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
  if (!read()) throw new Error('condition not reached');
}

it('the sample host eventing demo stages a publication and dispatches it to both subscriptions', async () => {
  const builder = createEngineBuilder({
    environment: {},
    contentRoot: __dirname,
    logger: createMemoryLogger(),
  });
  addEventingDemo(builder, { Outbox: { DispatchIntervalMilliseconds: 10 } });
  const engine = builder.build();
  await engine.start();
  try {
    const answer = await engine.operations.invoke('eventing.publish', {
      body: { id: 'demo-1', channelId: 'orders', eventType: 'order-placed', payload: { flaky: true } },
    });
    expect(answer.body).toMatchObject({ outcome: 'accepted', metadata: { staged: true } });
    await eventually(
      () => (engine.catalog('event-publications-runtime')!.find('demo-1') as any)?.outcome === 'succeeded',
    );
    expect(engine.catalog('event-subscription-readiness')!.find('update-loyalty')).toMatchObject({
      readinessState: 'runtime-bound',
      metadata: { lastAttempt: 2, retryScheduledCount: 1 },
    });
    expect(engine.catalog('outboxes')!.find('eventing-outbox')).toMatchObject({
      sourceModuleId: 'storefront',
    });
  } finally {
    await engine.stop();
  }
});
