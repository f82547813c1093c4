import path from 'node:path';
import * as storePostgres from '@corekit/store-postgres';
import * as storeRedis from '@corekit/store-redis';
import { startFixture, type FixtureProcess } from '@corekit/testing/child-process';
import type { NotifierService } from '@corekit/testing/notifier-service';
import { pollUntil } from '@corekit/testing/poll-until';
import { sharedReplicaTargets, type ReplicaStores } from '@corekit/testing/replica-stores';
import {
  alertsEngine,
  notificationsOf,
  startWebhookReceiver,
  webhookSecret,
} from './test-support/alerts-fixture';

// The process-kill case, on PostgreSQL and on Redis: replica A (a child process) claims both deliveries of a
// notification and is SIGKILLed while its requests are in flight; replica B (this process, same table or key
// prefix) sends each once after A's lease lapsed. Real time here (the lease spans two processes): 4 s lease, 2 s
// notifier timeout. Both children start together before the cases (tsx compiling the sources is most of the cost).
jest.setTimeout(60_000);

const { targets } = sharedReplicaTargets({ postgres: storePostgres, redis: storeRedis }, 'alerts_kill');

/** One provider's side of the test: its store namespace, its receiver, the child replica on them. */
interface KillSetup {
  readonly stores: ReplicaStores;
  readonly receiver: NotifierService;
  readonly child: FixtureProcess;
}
const setups = new Map<string, KillSetup>();
const replicas: Array<ReturnType<typeof alertsEngine>> = [];

async function startSetup(stores: ReplicaStores): Promise<KillSetup> {
  const receiver = await startWebhookReceiver();
  const child = startFixture(path.join(__dirname, '..'), 'alerts-replica.ts', {
    ...stores.environment,
    RECEIVER_URL: receiver.url,
    WEBHOOK_SECRET: webhookSecret,
  });
  return { stores, receiver, child };
}

beforeAll(async () => {
  const started = await Promise.all(targets.map((target) => startSetup(target.isolate())));
  targets.forEach((target, index) => setups.set(target.name, started[index]));
  await Promise.all(started.map((setup) => setup.child.waitForLine('READY', 40_000)));
});
afterAll(async () => {
  for (const setup of setups.values()) setup.child.child.kill('SIGKILL');
  await Promise.all(replicas.map((replica) => replica.engine.stop()));
  await Promise.all([...setups.values()].map((setup) => setup.receiver.close()));
});

describe.each(targets.map((target) => [target.name] as const))('on %s', (name) => {
  it('a replica SIGKILLed mid-send leaves the notification to another replica, which sends it once', async () => {
    const { stores, receiver, child } = setups.get(name)!;
    const realTime = {
      get now() {
        return Date.now();
      },
    };
    const replica = alertsEngine({
      receiver,
      clock: realTime,
      alerts: { GroupWindow: '0s', Delivery: { Lease: '4s' } },
      stores: (builder) => stores.install(builder),
    });
    replicas.push(replica);
    await replica.start();

    receiver.hang(); // A's requests stay in flight
    replica.switches['inventory-api'] = 'Unhealthy';
    for (let run = 0; run < 3; run++) await replica.check();
    expect(await replica.evaluate()).toBe(1);
    await pollUntil(
      async () => receiver.requests.length,
      (count) => count >= 2,
      { timeoutMs: 10_000 },
    );
    child.child.kill('SIGKILL');
    expect(await child.exited).toBeNull();
    expect(receiver.requests.map((request) => request.path).sort()).toEqual(['/a', '/b']);
    receiver.answerAgain();

    const entries = await pollUntil(
      async () => {
        await replica.deliver();
        await replica.evaluate(); // refreshes the catalogs from the shared store
        return replica.deliveries();
      },
      (list) => list.length === 2 && list.every((entry) => entry.outcome === 'delivered'),
      { timeoutMs: 20_000, intervalMs: 250 },
    );
    expect(entries.map((entry) => entry.attempts)).toEqual([2, 2]);
    expect(entries.every((entry) => String(entry.lastAttemptBy).includes(`:${process.pid}:`))).toBe(true);
    expect(notificationsOf(receiver, '/a')).toHaveLength(1);
    expect(notificationsOf(receiver, '/b')).toHaveLength(1);
    expect(receiver.requests).toHaveLength(4);
  });
});
