import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { addPostgresStores } from '@corekit/store-postgres';
import { startFixture, type FixtureProcess } from '@corekit/testing/child-process';
import type { NotifierService } from '@corekit/testing/notifier-service';
import { pollUntil } from '@corekit/testing/poll-until';
import { dropStoreNamespace } from '@corekit/testing/replica-harness';
import { requireService } from '@corekit/testing/require-service';
import {
  alertsEngine,
  notificationsOf,
  startWebhookReceiver,
  webhookSecret,
} from './test-support/alerts-fixture';

// The one process-kill case: replica A (a child process) claims both deliveries of a notification and is SIGKILLed
// while its requests are in flight; replica B (this process, same PostgreSQL table) sends each once after A's lease
// lapsed. Real time here (the lease spans two processes): 4 s lease, 2 s notifier timeout.
jest.setTimeout(60_000);

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const table = `alerts_kill_${randomBytes(5).toString('hex')}`;
let receiver: NotifierService;
let child: FixtureProcess | undefined;
let replica: ReturnType<typeof alertsEngine> | undefined;

beforeAll(async () => {
  await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  child?.child.kill('SIGKILL');
  await replica?.engine.stop();
  await receiver.close();
  await dropStoreNamespace({ provider: 'postgresql', tableName: table }, postgresUrl);
});

it('a replica SIGKILLed mid-send leaves the notification to another replica, which sends it once', async () => {
  const realTime = {
    get now() {
      return Date.now();
    },
  };
  replica = alertsEngine({
    receiver,
    clock: realTime,
    alerts: { GroupWindow: '0s', Delivery: { Lease: '4s' } },
    stores: (builder) =>
      addPostgresStores(builder, { ConnectionString: postgresUrl, TableName: table, PoolMax: 2 }),
  });
  await replica.start();
  child = startFixture(path.join(__dirname, '..'), 'alerts-replica.ts', {
    POSTGRES_URL: postgresUrl,
    STORE_TABLE: table,
    RECEIVER_URL: receiver.url,
    WEBHOOK_SECRET: webhookSecret,
  });
  await child.waitForLine('READY', 40_000);

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
      await replica!.deliver();
      await replica!.evaluate(); // refreshes the catalogs from the shared store
      return replica!.deliveries();
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
