import { resolveStoreSchema, versionedStore } from '@corekit/abstractions';
import { KeyedOutboxStore } from '@corekit/eventing';
import * as storePostgres from '@corekit/store-postgres';
import * as storeRedis from '@corekit/store-redis';
import type { NotifierService } from '@corekit/testing/notifier-service';
import { sharedReplicaTargets } from '@corekit/testing/replica-stores';
import { alertsEngine, notificationsOf, startWebhookReceiver } from './test-support/alerts-fixture';

// Two alerts engines (replicas) in this process on one shared store, one PostgreSQL table or Redis key prefix per
// test, with the same dependencies (one outage both see) and a manual clock: each notification is sent once.
const { targets } = sharedReplicaTargets({ postgres: storePostgres, redis: storeRedis }, 'alerts');

let receiver: NotifierService;
const engines: Array<ReturnType<typeof alertsEngine>> = [];
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.engine.stop()));
  receiver.requests.splice(0);
  receiver.accepted.splice(0);
});

describe.each(targets.map((target) => [target.name, target] as const))('on %s', (_name, target) => {
  it('two replicas seeing one outage send each notification once, and a claim of a dead replica is sent once by another', async () => {
    const clock = { now: Date.parse('2026-12-01T10:00:00Z') };
    const stores = target.isolate();
    const [a, b] = [0, 1].map(() => {
      const engine = alertsEngine({ receiver, clock, stores: (builder) => stores.install(builder) });
      engines.push(engine);
      return engine;
    });
    await Promise.all([a.start(), b.start()]);
    for (const replica of [a, b]) replica.switches['inventory-api'] = 'Unhealthy';
    for (let run = 0; run < 3; run++) await Promise.all([a.check(), b.check()]);
    clock.now += 31_000;
    const staged = await Promise.all([a.evaluate(), b.evaluate()]);
    expect(staged[0] + staged[1]).toBe(1);
    await Promise.all([a.deliver(), b.deliver()]);
    await Promise.all([a.deliver(), b.deliver()]);
    expect(notificationsOf(receiver, '/a')).toHaveLength(1);
    expect(notificationsOf(receiver, '/b')).toHaveLength(1);
    expect(receiver.requests).toHaveLength(2);
    expect(a.incidents()).toHaveLength(1);

    // The outage ends; replica A stages the resolved notification, and a replica that is about to die claims
    // both deliveries (it would send and never confirm): nobody sends them while its lease holds.
    for (const replica of [a, b]) replica.switches['inventory-api'] = 'Healthy';
    for (let run = 0; run < 2; run++) await Promise.all([a.check(), b.check()]);
    expect(await a.evaluate()).toBe(1);
    const provider = stores.openProvider();
    try {
      const outboxStore = versionedStore(provider.open('alerts-outbox'), resolveStoreSchema('alerts-outbox'));
      const dead = new KeyedOutboxStore(outboxStore as never, 60_000, () => clock.now);
      const claimed = await dead.claim('dead-replica', 10, 30_000);
      expect(claimed.map((message) => message.id).sort()).toEqual([
        expect.stringMatching(/\.r2\.hook-a$/),
        expect.stringMatching(/\.r2\.hook-b$/),
      ]);
    } finally {
      await provider.close();
    }
    expect(await Promise.all([a.deliver(), b.deliver()])).toEqual([0, 0]);
    clock.now += 30_001; // the dead replica's lease lapsed
    const attempted = [
      ...(await Promise.all([a.deliver(), b.deliver()])),
      ...(await Promise.all([a.deliver(), b.deliver()])),
    ];
    expect(attempted.reduce((sum, count) => sum + count, 0)).toBe(2);
    expect(notificationsOf(receiver, '/a').map((notification) => notification.status)).toEqual([
      'firing',
      'resolved',
    ]);
    expect(notificationsOf(receiver, '/b').map((notification) => notification.status)).toEqual([
      'firing',
      'resolved',
    ]);
    expect(receiver.requests).toHaveLength(4);
    await b.evaluate(); // B's catalogs read the shared delivery log
    const log = b.deliveries().filter((entry) => entry.status === 'resolved');
    expect(log.map((entry) => [entry.outcome, entry.attempts])).toEqual([
      ['delivered', 2],
      ['delivered', 2],
    ]);
  });
});
