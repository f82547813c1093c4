import { resolveStoreSchema, versionedStore } from '@corekit/abstractions';
import * as storePostgres from '@corekit/store-postgres';
import * as storeRedis from '@corekit/store-redis';
import { pollUntil } from '@corekit/testing/poll-until';
import { sharedReplicaTargets, type ReplicaStores } from '@corekit/testing/replica-stores';
import type { EventDispatcher, EventingOptionsInput, SubscriptionExecutor } from './index';
import { KeyedOutboxStore, useEventDispatcher } from './index';
import type { OutboxRecord } from './keyed-outbox-store';
import { declareOrders, startEventing } from './test-support/eventing-fixture';

// Two or three eventing engines (replicas) in this process on one shared store: one PostgreSQL table or one
// Redis key prefix per test, as replicas of one host share them.
const { targets } = sharedReplicaTargets({ postgres: storePostgres, redis: storeRedis }, 'eventing');

const stoppable: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(stoppable.splice(0).map((item) => item.stop()));
});

const placed = (id: string) => ({
  id,
  channelId: 'orders',
  eventType: 'order-placed',
  payload: { orderId: id },
});

const within = { timeoutMs: 10_000 };

/** Dispatch passes only when a test triggers them (after the one at startup); claims hold for one second. */
const replicaOptions = (extra: Record<string, unknown> = {}): EventingOptionsInput => ({
  SharedStateRefreshMilliseconds: 100,
  Outbox: {
    Enabled: true,
    DispatchIntervalMilliseconds: 3_600_000,
    RetryDelayMilliseconds: 0,
    LeaseSeconds: 1,
    ...extra,
  },
});

async function replica(
  stores: ReplicaStores,
  billing: SubscriptionExecutor,
  extra = {},
  dispatcher?: EventDispatcher,
) {
  const started = await startEventing(replicaOptions(extra), (builder) => {
    stores.install(builder);
    declareOrders(builder, { billing });
    if (dispatcher) useEventDispatcher(builder, dispatcher);
  });
  stoppable.push(started.engine);
  // The startup pass runs on its own after the start: the tests' passes come after it.
  const job = started.registration.dispatchJob!;
  await pollUntil(
    async () => job.state(),
    (state) => state.runCount >= 1 && !state.running,
    within,
  );
  const find = (catalogId: string, id: string) =>
    started.engine.catalog(catalogId)!.find(id) as Record<string, any> | undefined;
  const pass = async () => {
    const outcome = await started.registration.dispatchJob!.trigger();
    if (outcome.status !== 'completed') throw new Error(`dispatch pass ${outcome.status}`);
    return outcome.result;
  };
  return { ...started, find, pass };
}

describe.each(targets)('eventing replicas on the $name store provider', (target) => {
  it('a publication accepted on A reads accepted on B; dispatched by B, A reads it succeeded', async () => {
    const stores = target.isolate();
    const ranOn: string[] = [];
    const a = await replica(stores, async () => void ranOn.push('A'));
    const b = await replica(stores, async () => void ranOn.push('B'));

    expect((await a.publish(placed('p-1'))).body).toMatchObject({ outcome: 'accepted' });
    const onB = await pollUntil(
      async () => b.find('event-publications-runtime', 'p-1'),
      (state) => state !== undefined,
      within,
    );
    expect(onB).toMatchObject({ outcome: 'accepted', acceptedCount: 1, scope: 'shared' });

    expect(await b.pass()).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(ranOn).toEqual(['B']);
    const onA = await pollUntil(
      async () => a.find('event-publications-runtime', 'p-1'),
      (state) => state?.outcome === 'succeeded',
      within,
    );
    expect(onA).toMatchObject({ outcome: 'succeeded', acceptedCount: 1, succeededCount: 1, scope: 'shared' });
    const dispatchOnA = await pollUntil(
      async () => a.find('event-dispatches', 'eventing-outbox'),
      (state) => state?.succeededCount === 1,
      within,
    );
    expect(dispatchOnA).toMatchObject({ outcome: 'succeeded', startedCount: 1, scope: 'shared' });
    expect(a.find('event-dispatch-runtimes', 'eventing-dispatch')).toMatchObject({
      scope: 'shared',
      summary: { totalReportCount: 2, hasTerminalFailures: false },
    });
    const channel = a.engine
      .technologySurfaces()
      .find((surface) => surface.id === 'event-channels/orders' || surface.kind === 'event-channels');
    expect(channel?.metadata).toMatchObject({
      'reported.scope': 'shared',
      'reported.lastOutcome': 'succeeded',
    });
    // Readiness is this process's own: each replica says so.
    expect(a.find('event-subscription-readiness', 'billing')).toMatchObject({ scope: 'process-local' });
  });

  it('a publication accepted on A and sent to a broker by B reads succeeded on A, naming the dispatcher', async () => {
    const stores = target.isolate();
    const sent: string[] = [];
    const broker: EventDispatcher = {
      id: 'test-broker',
      executionOwnership: 'provider-managed',
      dispatch: async (message) => void sent.push(message.publicationId),
    };
    const a = await replica(stores, async () => undefined);
    const b = await replica(stores, async () => undefined, {}, broker);
    await a.publish(placed('p-6'));
    expect(await b.pass()).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(sent).toEqual(['p-6']);
    const onA = await pollUntil(
      async () => a.find('event-publications-runtime', 'p-6'),
      (state) => state?.outcome === 'succeeded',
      within,
    );
    expect(onA).toMatchObject({
      acceptedCount: 1,
      succeededCount: 1,
      subscriptionCounts: { matched: 1, succeeded: 0 },
      metadata: { deliveryCompletion: 'dispatched', dispatcherId: 'test-broker' },
    });
  });

  it("a terminal failure on B is on A's dispatch states and terminal-failures view", async () => {
    const stores = target.isolate();
    const a = await replica(stores, async () => undefined, { MaxAttempts: 1 });
    const b = await replica(
      stores,
      async () => {
        throw new Error('billing is down');
      },
      { MaxAttempts: 1 },
    );
    await a.publish(placed('p-2'));
    expect(await b.pass()).toMatchObject({ claimed: 1, failed: 1 });
    const failures = await pollUntil(
      async () =>
        (a.engine.catalog('event-dispatches')!.entries() as Array<Record<string, any>>).filter(
          (state) => state.terminalFailure,
        ),
      (states) => states.length === 1,
      within,
    );
    expect(failures[0]).toMatchObject({ outboxId: 'eventing-outbox', terminalFailureCount: 1 });
    const onA = await pollUntil(
      async () => a.find('event-publications-runtime', 'p-2'),
      (state) => state?.outcome === 'failed',
      within,
    );
    expect(onA).toMatchObject({ outcome: 'failed', failedCount: 1 });
  });

  it("a replica that starts never takes A's live claim; A stopped mid-dispatch, B delivers it once", async () => {
    const stores = target.isolate();
    const deliveries: string[] = [];
    let interruptA!: (error: Error) => void;
    const interrupted = new Promise<never>((_, reject) => (interruptA = reject));
    let aStarted = false;
    const a = await replica(stores, async () => {
      aStarted = true;
      await interrupted;
    });
    await a.publish(placed('p-3'));
    const aPass = a.pass();
    await pollUntil(async () => aStarted, Boolean, within);

    // B starts (its startup pass runs) while A holds the claim: B claims nothing and fails nothing.
    const b = await replica(stores, async ({ message }) => void deliveries.push(message.publicationId));
    expect(await b.pass()).toMatchObject({ claimed: 0, failed: 0, retryScheduled: 0 });

    // A stops mid-dispatch: its interrupted attempt gives the message back, uncounted.
    const stopping = a.engine.stop();
    interruptA(new Error('stopped'));
    await stopping;
    expect(await aPass).toMatchObject({ claimed: 1, released: 1, succeeded: 0 });

    const passes = [await b.pass(), await b.pass()];
    expect(deliveries).toEqual(['p-3']);
    expect(passes.map((pass) => pass.succeeded)).toEqual([1, 0]);
    expect(b.find('event-publications-runtime', 'p-3')).toMatchObject({ outcome: 'succeeded' });
  });

  it('a send that outlasts its lease keeps the claim (renewed): no other replica sends the message meanwhile', async () => {
    const stores = target.isolate();
    const deliveries: string[] = [];
    let finish!: () => void;
    const slow = new Promise<void>((resolve) => (finish = resolve));
    let aStarted = false;
    const a = await replica(stores, async ({ message }) => {
      aStarted = true;
      await slow;
      deliveries.push(`a:${message.publicationId}`);
    });
    const b = await replica(
      stores,
      async ({ message }) => void deliveries.push(`b:${message.publicationId}`),
    );
    await a.publish(placed('p-slow'));
    const aPass = a.pass();
    await pollUntil(async () => aStarted, Boolean, within);

    const provider = stores.openProvider();
    stoppable.push({ stop: () => provider.close() });
    const raw = versionedStore<OutboxRecord>(
      provider.open('eventing-outbox'),
      resolveStoreSchema('eventing-outbox'),
    );
    const claimEnd = async () => {
      const [due] = await raw.list({ prefix: 'due:' });
      return due?.value.kind === 'due' ? due.value.claimExpiresAtMs : 0;
    };
    const firstEnd = await claimEnd();
    // A renews while its send runs (every third of the 1 s lease): once a renewal ends a full lease after the
    // first claim's end, the first lease is over, and B still finds nothing to claim.
    const renewedEnd = await pollUntil(claimEnd, (end) => end >= firstEnd + 1000, within);
    expect(renewedEnd).toBeGreaterThanOrEqual(firstEnd + 1000);
    expect(await b.pass()).toMatchObject({ claimed: 0 });
    finish();
    expect(await aPass).toMatchObject({ claimed: 1, succeeded: 1, claimLost: 0 });
    expect(await b.pass()).toMatchObject({ claimed: 0 });
    expect(deliveries).toEqual(['a:p-slow']);
  });

  it('a claim whose owner died is taken over after its lease by one replica, once', async () => {
    const stores = target.isolate();
    const deliveries: string[] = [];
    const deliver: SubscriptionExecutor = async ({ message }) => void deliveries.push(message.publicationId);
    const b = await replica(stores, deliver);
    const c = await replica(stores, deliver);
    await b.publish(placed('p-4'));

    // A replica that died holding the claim: it claimed through the same store, then never settled.
    const provider = stores.openProvider();
    stoppable.push({ stop: () => provider.close() });
    const deadReplica = new KeyedOutboxStore(
      versionedStore<OutboxRecord>(provider.open('eventing-outbox'), resolveStoreSchema('eventing-outbox')),
    );
    expect(await deadReplica.claim('replica-that-died', 10, 1000)).toHaveLength(1);
    expect(await b.pass()).toMatchObject({ claimed: 0 });

    // Once the lease ran out, B and C race for it: one of them delivers it, once.
    await pollUntil(
      () => Promise.all([b.pass(), c.pass()]),
      () => deliveries.length > 0,
      within,
    );
    await Promise.all([b.pass(), c.pass()]);
    expect(deliveries).toEqual(['p-4']);
    const state = await pollUntil(
      async () => c.find('event-publications-runtime', 'p-4'),
      (found) => found?.outcome === 'succeeded',
      within,
    );
    expect(state).toMatchObject({ succeededCount: 1 });
    // The dead owner cannot settle what it lost.
    expect(await deadReplica.complete('p-4', 'replica-that-died')).toBe(false);
  });
});

describe('without a shared store provider', () => {
  it('publication and dispatch states say they are process-local', async () => {
    const started = await startEventing(replicaOptions(), (builder) =>
      declareOrders(builder, { billing: async () => undefined }),
    );
    stoppable.push(started.engine);
    await started.publish(placed('p-5'));
    await started.registration.dispatchJob!.trigger();
    const state = await pollUntil(
      async () => started.engine.catalog('event-publications-runtime')!.find('p-5') as any,
      (found) => found?.outcome === 'succeeded',
      within,
    );
    expect(state.scope).toBe('process-local');
    expect(started.engine.catalog('event-dispatches')!.find('eventing-outbox')).toMatchObject({
      scope: 'process-local',
    });
    expect(started.engine.catalog('event-dispatch-runtimes')!.find('eventing-dispatch')).toMatchObject({
      scope: 'process-local',
    });
  });
});
