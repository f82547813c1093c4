import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngineBuilder, createMemoryLogger, FileStoreProvider } from '@corekit/engine-core';
import {
  addEventing,
  addEventSubscriptionExecutor,
  declareEventing,
  type SubscriptionExecution,
} from './index';
import { declareOrders, startEventing } from './test-support/eventing-fixture';

const engines: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
});

async function start(...args: Parameters<typeof startEventing>) {
  const started = await startEventing(...args);
  engines.push(started.engine);
  return started;
}

const placed = (id?: string) => ({
  ...(id ? { id } : {}),
  channelId: 'orders',
  eventType: 'order-placed',
  payload: { orderId: 'o-1' },
  correlationId: 'c-1',
  metadata: { source: 'test' },
});

describe('declarations', () => {
  it('fails the build naming unknown channels, modules, subscriptions and hosted executions', () => {
    const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
    builder.addModule({ id: 'orders', version: '1.0.0' });
    declareEventing(builder, {
      moduleId: 'orders',
      channels: [{ id: 'orders' }],
      subscriptions: [
        { id: 'audit', channelId: 'payments' },
        {
          id: 'linked',
          channelId: 'orders',
          executionOwnership: 'hosted-execution',
          hostedExecutionId: 'nope',
        },
      ],
      publishers: [{ id: 'api', channelIds: ['refunds'] }],
    });
    declareEventing(builder, { moduleId: 'ghost', channels: [{ id: 'ghost-channel' }] });
    addEventing(builder);
    addEventSubscriptionExecutor(builder, 'missing', () => undefined);
    expect(() => builder.build()).toThrow(
      expect.objectContaining({
        code: 'ENGINE_REGISTRATION_INVALID',
        details: {
          problems: expect.arrayContaining([
            'eventing: subscription "audit" references unknown channel "payments"',
            'eventing: subscription "linked" references unknown hosted execution "nope"',
            'eventing: publisher "api" references unknown channel "refunds"',
            'eventing: eventing declarations name unknown module "ghost"',
            'eventing: an executor is registered for unknown subscription "missing"',
          ]),
        },
      }),
    );
  });

  it('refuses a second addEventing and unknown option keys', () => {
    const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
    addEventing(builder);
    expect(() => addEventing(builder)).toThrow(expect.objectContaining({ code: 'ALREADY_REGISTERED' }));
    const other = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
    addEventing(other, { InProcessSubscriptionMaxAttempt: 3 } as never);
    expect(() => other.configuration.assertKnownKeys()).toThrow(
      /Engine:Eventing:InProcessSubscriptionMaxAttempt\b[\s\S]*InProcessSubscriptionMaxAttempts/,
    );
  });
});

describe('direct publication', () => {
  it('runs matching executors, answers EventPublicationResult and records the publication state', async () => {
    const seen: SubscriptionExecution[] = [];
    const { publish, engine } = await start({}, (builder) =>
      declareOrders(
        builder,
        { billing: (execution) => void seen.push(execution), shipping: () => undefined, audit: undefined },
        { eventTypes: { shipping: ['order-cancelled'] } },
      ),
    );
    const answer = await publish(placed('p-1'));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      publicationId: 'p-1',
      channelId: 'orders',
      eventType: 'order-placed',
      outcome: 'accepted',
      acceptedAtUtc: expect.any(String),
      metadata: expect.objectContaining({
        trigger: 'route',
        route: '/engine/event-publications',
        lane: 'direct',
        matchedSubscriptionCount: 2,
        executedSubscriptionCount: 1,
        succeededSubscriptionCount: 1,
      }),
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      subscriptionId: 'billing',
      attempt: 1,
      message: { publicationId: 'p-1' },
    });
    const state = engine.catalog('event-publications-runtime')!.find('p-1') as Record<string, unknown>;
    expect(state).toMatchObject({
      outcome: 'succeeded',
      acceptedCount: 1,
      succeededCount: 1,
      subscriptionCounts: { matched: 2, succeeded: 1, failed: 0, skipped: 0 },
    });
  });

  it('answers 404 for an unregistered channel and when publication is not active, 400 for an undeclared type', async () => {
    const { publish } = await start({}, (builder) => declareOrders(builder, {}));
    await expect(publish({ ...placed(), channelId: 'nope' })).rejects.toMatchObject({
      kind: 'not-found',
      code: 'EVENT_CHANNEL_NOT_FOUND',
    });
    await expect(publish({ ...placed(), eventType: 'order-shipped' })).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'EVENT_TYPE_NOT_DECLARED',
    });
    await expect(publish({ channelId: 'orders' })).rejects.toMatchObject({ kind: 'invalid-input' });
    const off = await start({ EnablePublication: false }, (builder) => declareOrders(builder, {}));
    await expect(off.publish(placed())).rejects.toMatchObject({
      kind: 'not-active',
      code: 'EVENT_PUBLICATION_NOT_ACTIVE',
    });
  });

  it('refuses a payload over MaxPayloadBytes (413) and keeps at most MaxPublicationStates states', async () => {
    const { publish, engine } = await start({ MaxPayloadBytes: 64, MaxPublicationStates: 2 }, (builder) =>
      declareOrders(builder, {}),
    );
    await expect(publish({ ...placed(), payload: 'x'.repeat(100) })).rejects.toMatchObject({
      kind: 'too-large',
      code: 'EVENT_PAYLOAD_TOO_LARGE',
    });
    for (const id of ['b-1', 'b-2', 'b-3']) await publish(placed(id));
    const states = engine.catalog('event-publications-runtime')!.entries() as Array<{
      publicationId: string;
    }>;
    expect(states.map((state) => state.publicationId)).toEqual(['b-2', 'b-3']);
  });

  it('retries a failing executor up to InProcessSubscriptionMaxAttempts without blocking the others', async () => {
    let calls = 0;
    const other: string[] = [];
    const { publish, engine } = await start(
      { InProcessSubscriptionMaxAttempts: 3, InProcessSubscriptionRetryDelayMilliseconds: 1 },
      (builder) =>
        declareOrders(builder, {
          flaky: () => {
            calls += 1;
            if (calls < 3) throw new Error(`down ${calls}`);
          },
          broken: () => {
            throw new Error('always');
          },
          steady: (execution) => void other.push(execution.message.publicationId),
        }),
    );
    await publish(placed('p-2'));
    expect(calls).toBe(3);
    expect(other).toEqual(['p-2']);
    const readiness = engine.catalog('event-subscription-readiness')!;
    expect(readiness.find('flaky')).toMatchObject({
      metadata: { lastAttempt: 3, retryScheduledCount: 2, 'reported.lastOutcome': 'succeeded' },
    });
    expect(readiness.find('broken')).toMatchObject({
      metadata: {
        lastAttempt: 3,
        retryScheduledCount: 2,
        'reported.lastOutcome': 'failed',
        'reported.lastError': 'Error: always',
      },
    });
    expect(engine.catalog('event-publications-runtime')!.find('p-2')).toMatchObject({
      outcome: 'failed',
      subscriptionCounts: { matched: 3, succeeded: 2, failed: 1, skipped: 0 },
      error: expect.stringContaining('broken: Error: always'),
    });
  });

  it('bounds a slow executor with the timeout and aborts its signal', async () => {
    let aborted = false;
    const { publish, engine } = await start({ InProcessSubscriptionTimeoutMilliseconds: 20 }, (builder) =>
      declareOrders(builder, {
        slow: ({ signal }) =>
          new Promise<void>((resolve) =>
            signal.addEventListener('abort', () => {
              aborted = true;
              resolve();
            }),
          ),
        fast: () => undefined,
      }),
    );
    await publish(placed('p-3'));
    expect(aborted).toBe(true);
    expect(engine.catalog('event-subscription-readiness')!.find('slow')).toMatchObject({
      metadata: { 'reported.lastOutcome': 'failed', 'reported.lastError': 'attempt 1 timed out after 20 ms' },
    });
    expect(engine.catalog('event-subscription-readiness')!.find('fast')).toMatchObject({
      metadata: { 'reported.lastOutcome': 'succeeded' },
    });
  });

  it('settles an executor that returns a promise by that promise: rejected fails, resolved succeeds', async () => {
    const { publish, engine } = await start({ InProcessSubscriptionRetryDelayMilliseconds: 1 }, (builder) =>
      declareOrders(builder, {
        rejecting: async () => {
          await Promise.resolve();
          throw new Error('rejected later');
        },
        resolving: async () => {
          await Promise.resolve();
        },
      }),
    );
    await publish(placed('p-async'));
    const readiness = engine.catalog('event-subscription-readiness')!;
    expect(readiness.find('rejecting')).toMatchObject({
      metadata: { 'reported.lastOutcome': 'failed', 'reported.lastError': 'Error: rejected later' },
    });
    expect(readiness.find('resolving')).toMatchObject({ metadata: { 'reported.lastOutcome': 'succeeded' } });
  });

  it('skips a completed subscriptionId + publicationId when idempotency is enabled (outcome skipped)', async () => {
    let runs = 0;
    const { publish, engine } = await start({ EnableInProcessSubscriptionIdempotency: true }, (builder) =>
      declareOrders(builder, { once: () => void (runs += 1) }),
    );
    await publish(placed('p-4'));
    const second = await publish(placed('p-4'));
    await publish(placed('p-5'));
    expect(runs).toBe(2);
    expect(second.body).toMatchObject({ metadata: { skippedSubscriptionCount: 1 } });
    expect(engine.catalog('event-publications-runtime')!.find('p-4')).toMatchObject({
      outcome: 'skipped',
      acceptedCount: 2,
      succeededCount: 1,
      skippedCount: 1,
    });
  });

  it('runs a duplicate again when idempotency is off (the default)', async () => {
    let runs = 0;
    const { publish } = await start({}, (builder) =>
      declareOrders(builder, { again: () => void (runs += 1) }),
    );
    await publish(placed('p-6'));
    await publish(placed('p-6'));
    expect(runs).toBe(2);
  });
});

describe('subscription readiness (3.2)', () => {
  it('moves declared-only to runtime-bound when execution is enabled and an executor exists, with ordered reasons', async () => {
    const { engine } = await start({}, (builder) =>
      declareOrders(builder, { bound: () => undefined, bare: undefined }),
    );
    const readiness = engine.catalog('event-subscription-readiness')!;
    expect(readiness.find('bound')).toMatchObject({
      readinessState: 'runtime-bound',
      executionOwnership: 'core-managed',
      executionMode: 'direct',
      reasons: ['in-process-execution-enabled', 'subscription-executor-registered'],
      metadata: { executionPath: 'core-managed/direct/process-local' },
    });
    expect(readiness.find('bare')).toMatchObject({
      readinessState: 'declared-only',
      reasons: ['in-process-execution-enabled', 'subscription-executor-missing'],
    });
    const off = await start({ EnableInProcessSubscriptionExecution: false }, (builder) =>
      declareOrders(builder, { bound: () => undefined }),
    );
    expect(off.engine.catalog('event-subscription-readiness')!.find('bound')).toMatchObject({
      readinessState: 'declared-only',
      reasons: ['in-process-execution-disabled', 'subscription-executor-registered'],
    });
  });

  it('feeds publicationMetadata.* back into the readiness entry', async () => {
    const { publish, engine } = await start({}, (builder) =>
      declareOrders(builder, { billing: () => undefined }),
    );
    await publish(placed('p-7'));
    expect(engine.catalog('event-subscription-readiness')!.find('billing')).toMatchObject({
      metadata: {
        'publicationMetadata.publicationId': 'p-7',
        'publicationMetadata.channelId': 'orders',
        'publicationMetadata.outcome': 'succeeded',
        'publicationMetadata.correlationId': 'c-1',
        'publicationMetadata.source': 'test',
      },
    });
  });
});

describe('technology surfaces (2.5)', () => {
  it('idempotency durability and scope follow the store provider installed in code, after addEventing', async () => {
    const idempotencyOf = async (install?: (builder: ReturnType<typeof createEngineBuilder>) => void) => {
      const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
      declareOrders(builder, { billing: () => undefined });
      addEventing(builder, { EnableInProcessSubscriptionIdempotency: true });
      install?.(builder);
      const engine = builder.build();
      engines.push(engine);
      await engine.start();
      const metadata = engine
        .technologySurfaces()
        .find((item) => item.id === 'event-subscriptions/billing')!.metadata;
      return [metadata.idempotencyStoreKind, metadata.idempotencyDurability, metadata.idempotencyScope];
    };
    expect(await idempotencyOf()).toEqual(['memory', 'none', 'process-local']);
    const directory = mkdtempSync(path.join(os.tmpdir(), 'eventing-posture-'));
    expect(
      await idempotencyOf((builder) => builder.useStoreProvider(new FileStoreProvider({ directory }))),
    ).toEqual(['file', 'durable-local', 'node-local']);
  });

  it('projects channels, subscriptions and publishers with every eventing key', async () => {
    const { engine } = await start(
      { InProcessSubscriptionMaxAttempts: 2, EnableInProcessSubscriptionIdempotency: true },
      (builder) => declareOrders(builder, { billing: () => undefined }),
    );
    const surfaces = engine.technologySurfaces();
    expect(surfaces.map((surface) => surface.id)).toEqual(
      expect.arrayContaining([
        'event-channels/orders',
        'event-subscriptions/billing',
        'event-publishers/eventing.route-trigger',
        'event-publishers/orders.api',
      ]),
    );
    const subscription = surfaces.find((surface) => surface.id === 'event-subscriptions/billing')!;
    expect(subscription.metadata).toMatchObject({
      executionReadiness: 'runtime-bound',
      executionPath: 'core-managed/direct/process-local',
      executionReadinessReasons: ['in-process-execution-enabled', 'subscription-executor-registered'],
      retryPolicy: 'bounded-in-process',
      retryMaxAttempts: 2,
      retryDelayMilliseconds: 100,
      retryDurability: 'none',
      retryScope: 'process-local',
      lastAttempt: 0,
      retryScheduledCount: 0,
      idempotencyPolicy: 'completed-publication',
      idempotencyKey: 'subscription-publication',
      idempotencyRetentionMinutes: 60,
      idempotencyDurability: 'none',
      idempotencyScope: 'process-local',
      publicationRuntimeState: 'available',
      handoff: 'direct',
      'reported.executionCount': 0,
    });
    const publisher = surfaces.find((surface) => surface.id === 'event-publishers/eventing.route-trigger')!;
    expect(publisher.metadata).toMatchObject({
      retryPolicy: 'bounded-in-process',
      publicationRuntimeState: 'available',
    });
  });

  it('reports retryPolicy none and publicationRuntimeState available by default', async () => {
    const { engine } = await start({ Outbox: { Enabled: true } }, (builder) =>
      declareOrders(builder, { billing: () => undefined }),
    );
    const channel = engine.technologySurfaces().find((surface) => surface.id === 'event-channels/orders')!;
    expect(channel.metadata).toMatchObject({
      retryPolicy: 'none',
      publicationRuntimeState: 'available',
      handoff: 'outbox',
      deliveryCompletion: 'pending-dispatch',
    });
  });
});
