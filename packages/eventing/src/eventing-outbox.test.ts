import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EventDispatcher, EventMessage, OutboxStore } from './index';
import { eventingEventIds, MemoryOutboxStore, useEventDispatcher, useOutboxStore } from './index';
import { declareOrders, eventually, startEventing } from './test-support/eventing-fixture';

const engines: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
});

async function start(...args: Parameters<typeof startEventing>) {
  const started = await startEventing(...args);
  engines.push(started.engine);
  return started;
}

const placed = (id: string) => ({
  id,
  channelId: 'orders',
  eventType: 'order-placed',
  payload: { orderId: id },
});
const lane = (extra: Record<string, unknown> = {}) => ({
  Outbox: { Enabled: true, DispatchIntervalMilliseconds: 10, RetryDelayMilliseconds: 0, ...extra },
});

describe('outbox lane', () => {
  it('accepts as staged, then dispatches to the in-process subscriptions and reports the dispatch state', async () => {
    const delivered: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { publish, engine } = await start(lane(), (builder) =>
      declareOrders(builder, {
        billing: async ({ message }) => {
          await gate;
          delivered.push(message.publicationId);
        },
      }),
    );
    const answer = await publish(placed('s-1'));
    expect(answer.body).toMatchObject({
      outcome: 'accepted',
      metadata: {
        lane: 'outbox',
        outboxId: 'eventing-outbox',
        staged: true,
        deliveryCompletion: 'pending-dispatch',
      },
    });
    expect(delivered).toEqual([]);
    expect(engine.catalog('event-publications-runtime')!.find('s-1')).toMatchObject({ outcome: 'accepted' });
    release();
    const state = await eventually(() => {
      const found = engine.catalog('event-dispatches')!.find('eventing-outbox') as
        Record<string, unknown> | undefined;
      return found?.outcome === 'succeeded' ? found : undefined;
    });
    expect(delivered).toEqual(['s-1']);
    expect(state).toMatchObject({
      outboxId: 'eventing-outbox',
      channelId: 'orders',
      messageId: 's-1',
      attempt: 1,
      startedCount: 1,
      succeededCount: 1,
      failedCount: 0,
      retryScheduledCount: 0,
      retryPending: false,
      terminalFailure: false,
      metadata: { dispatcherId: 'in-process-subscriptions' },
    });
    expect(engine.catalog('event-publications-runtime')!.find('s-1')).toMatchObject({
      outcome: 'succeeded',
      acceptedCount: 1,
      succeededCount: 1,
    });
    expect(engine.catalog('event-subscription-readiness')!.find('billing')).toMatchObject({
      readinessState: 'runtime-bound',
      executionMode: 'outbox-dispatch',
      executionRuntimeId: 'eventing-dispatch',
    });
    expect(engine.catalog('event-dispatch-runtimes')!.find('eventing-dispatch')).toMatchObject({
      outboxIds: ['eventing-outbox'],
      ownership: { dispatcherId: 'in-process-subscriptions', outboxProvider: 'memory' },
      summary: { retryPendingOutboxCount: 0, terminalOutboxCount: 0, hasTerminalFailures: false },
    });
  });

  it('staging one publication id twice keeps one message', async () => {
    const delivered: string[] = [];
    const { publish, engine, registration } = await start(
      lane({ DispatchIntervalMilliseconds: 3_600_000 }),
      (builder) =>
        declareOrders(builder, { billing: ({ message }) => void delivered.push(message.publicationId) }),
    );
    await eventually(() => engine.jobs().find((job) => job.id === 'eventing.dispatch')?.runCount === 1);
    await publish(placed('s-2'));
    const second = await publish(placed('s-2'));
    expect(second.body).toMatchObject({ metadata: { duplicateStaging: true } });
    expect(second.status).toBe(200);
    await expect(registration.dispatchJob!.trigger()).resolves.toMatchObject({
      status: 'completed',
      result: { claimed: 1, succeeded: 1 },
    });
    await expect(registration.dispatchJob!.trigger()).resolves.toMatchObject({ result: { claimed: 0 } });
    expect(delivered).toEqual(['s-2']);
  });

  it('schedules retries, then fails terminally after MaxAttempts; the terminal-failures view and summary show it', async () => {
    const attempts: number[] = [];
    let brokerUp = false;
    const dispatcher: EventDispatcher = {
      id: 'test-broker',
      executionOwnership: 'provider-managed',
      async dispatch(message: EventMessage) {
        attempts.push(attempts.length + 1);
        if (!brokerUp) throw new Error(`broker down for ${message.publicationId}`);
      },
    };
    const { publish, engine } = await start(lane({ MaxAttempts: 3 }), (builder) => {
      declareOrders(builder, {});
      useEventDispatcher(builder, dispatcher);
    });
    await publish(placed('f-1'));
    const terminal = await eventually(() => {
      const view = engine.catalog('event-dispatches')!.entries() as Array<Record<string, unknown>>;
      return view.find((state) => state.terminalFailure === true);
    });
    expect(attempts).toEqual([1, 2, 3]);
    expect(terminal).toMatchObject({
      outcome: 'failed',
      attempt: 3,
      startedCount: 3,
      retryScheduledCount: 2,
      failedCount: 1,
      retryPending: false,
      terminalFailureCount: 1,
      error: 'Error: broker down for f-1',
    });
    expect(engine.catalog('event-dispatch-runtimes')!.find('eventing-dispatch')).toMatchObject({
      ownership: { executionOwnership: 'provider-managed', dispatcherId: 'test-broker' },
      summary: {
        totalReportCount: 6,
        retryPendingOutboxCount: 0,
        terminalFailureObservationCount: 1,
        terminalOutboxCount: 1,
        hasTerminalFailures: true,
      },
    });
    const story = engine.runtimeStory().timeline.filter((entry) => entry.kind === 'eventing.dispatch');
    expect(story.map((entry) => entry.transition)).toEqual([
      'retry-pending',
      'retry-cleared',
      'terminal-failure',
    ]);

    brokerUp = true;
    await publish(placed('f-2'));
    await eventually(
      () => (engine.catalog('event-dispatches')!.find('eventing-outbox') as any)?.outcome === 'succeeded',
    );
    expect(engine.catalog('event-dispatches')!.find('eventing-outbox')).toMatchObject({
      terminalFailure: false,
      terminalFailureCount: 1,
    });
    expect(
      engine
        .runtimeStory()
        .timeline.filter((entry) => entry.kind === 'eventing.dispatch')
        .at(-1),
    ).toMatchObject({ kind: 'eventing.dispatch', transition: 'recovered' });
  });

  it('sends a batch with dispatchMany: confirmed ones succeed, refused ones are retry-scheduled alone', async () => {
    const batches: string[][] = [];
    const refused = new Set(['b-2']);
    const dispatcher: EventDispatcher = {
      id: 'batch-broker',
      executionOwnership: 'provider-managed',
      dispatch: () => Promise.reject(new Error('dispatch is not used when dispatchMany exists')),
      async dispatchMany(messages) {
        batches.push(messages.map((message) => message.publicationId));
        return messages.map((message) =>
          refused.delete(message.publicationId) ? new Error(`nack ${message.publicationId}`) : null,
        );
      },
    };
    const { publish, engine, registration } = await start(
      lane({ DispatchIntervalMilliseconds: 3_600_000, BatchSize: 10 }),
      (builder) => {
        declareOrders(builder, {});
        useEventDispatcher(builder, dispatcher);
      },
    );
    for (const id of ['b-1', 'b-2', 'b-3']) await publish(placed(id));
    await expect(registration.dispatchJob!.trigger()).resolves.toMatchObject({
      result: { claimed: 3, succeeded: 2, retryScheduled: 1 },
    });
    expect(engine.catalog('event-dispatches')!.find('eventing-outbox')).toMatchObject({
      outcome: 'retry-scheduled',
      messageId: 'b-2',
      startedCount: 3,
      succeededCount: 2,
      retryScheduledCount: 1,
      retryPending: true,
      error: 'Error: nack b-2',
    });
    await expect(registration.dispatchJob!.trigger()).resolves.toMatchObject({
      result: { claimed: 1, succeeded: 1 },
    });
    expect(batches).toEqual([['b-1', 'b-2', 'b-3'], ['b-2']]);
    expect(engine.catalog('event-dispatches')!.find('eventing-outbox')).toMatchObject({
      outcome: 'succeeded',
      attempt: 2,
      startedCount: 4,
      succeededCount: 3,
      retryPending: false,
    });
  });

  it('counts a delivered message whose claim was lost as claim-lost (logged), not as succeeded', async () => {
    const outbox = new MemoryOutboxStore({ maxMessages: 100 });
    // An outbox whose claim on c-2 lapsed and was taken over before the dispatcher settled it.
    const losing: OutboxStore = {
      provider: 'losing',
      stage: (message) => outbox.stage(message),
      claim: (owner, limit, leaseMs) => outbox.claim(owner, limit, leaseMs),
      complete: (id, owner) => outbox.complete(id, owner),
      completeMany: async (ids, owner) =>
        outbox.completeMany(
          ids.filter((id) => id !== 'c-2'),
          owner,
        ),
      retry: (id, owner, at, error) => outbox.retry(id, owner, at, error),
      fail: (id, owner, error) => outbox.fail(id, owner, error),
      pendingCount: () => outbox.pendingCount(),
    };
    const { publish, logger, registration } = await start(
      lane({ DispatchIntervalMilliseconds: 3_600_000, BatchSize: 10 }),
      (builder) => {
        declareOrders(builder, { billing: async () => undefined });
        useOutboxStore(builder, losing);
      },
    );
    for (const id of ['c-1', 'c-2', 'c-3']) await publish(placed(id));
    await expect(registration.dispatchJob!.trigger()).resolves.toMatchObject({
      result: { claimed: 3, succeeded: 2, claimLost: 1, retryScheduled: 0, failed: 0 },
    });
    expect(
      logger.records.filter((record) => record.eventId === eventingEventIds.dispatchClaimLost),
    ).toHaveLength(1);
  });

  it('answers 404 by id before any report, and lists no dispatch runtime without the outbox lane', async () => {
    const { engine } = await start(lane({ DispatchIntervalMilliseconds: 3_600_000 }), (builder) =>
      declareOrders(builder, {}),
    );
    expect(engine.catalog('event-dispatches')!.find('eventing-outbox')).toBeUndefined();
    expect(engine.catalog('event-dispatch-runtimes')!.find('eventing-dispatch')).toMatchObject({
      summary: null,
    });
    const direct = await start({}, (builder) => declareOrders(builder, {}));
    expect(direct.engine.catalog('event-dispatch-runtimes')!.entries()).toEqual([]);
  });

  it('with File stores stages in the durable engine store: a message staged before a restart is sent after it', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'corekit-eventing-'));
    const stores = { Engine: { Stores: { Provider: 'File', Directory: directory } } };
    try {
      // Dispatch held off (one pass an hour, after the startup pass found nothing): the message stays staged.
      const first = await start(
        lane({ DispatchIntervalMilliseconds: 3_600_000 }),
        (builder) => declareOrders(builder, { billing: async () => undefined }),
        stores,
      );
      await first.registration.dispatchJob!.trigger();
      expect((await first.publish(placed('durable-1'))).body).toMatchObject({ outcome: 'accepted' });
      expect(first.engine.catalog('event-dispatch-runtimes')!.find('eventing-dispatch')).toMatchObject({
        ownership: { outboxProvider: 'engine-store' },
      });
      await first.engine.stop();

      const delivered: string[] = [];
      const second = await start(
        lane(),
        (builder) =>
          declareOrders(builder, {
            billing: async ({ message }) => {
              delivered.push(message.publicationId);
            },
          }),
        stores,
      );
      await eventually(
        () =>
          (second.engine.catalog('event-dispatches')!.find('eventing-outbox') as { succeededCount?: number })
            ?.succeededCount === 1,
      );
      expect(delivered).toEqual(['durable-1']);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
