import path from 'node:path';
import Redis from 'ioredis';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { requireService } from '@corekit/testing/require-service';
import { eventingLifecycleAdapter } from './test-support/eventing-lifecycle-adapter';
import { redisStores } from './test-support/store-providers';

// The keyed outbox of eventing on the Redis store provider (@corekit/store-redis): one key prefix per test.
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefixes = new Set<string>();
// The SIGKILL check's child process reads them.
process.env.REDIS_URL = redisUrl;
process.env.EVENTING_LIFECYCLE_STORES = 'redis';

beforeAll(async () => {
  await requireService('Redis', redisUrl, 'REDIS_URL');
});

afterAll(async () => {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    for (const prefix of prefixes) {
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (keys.length > 0) await client.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    client.disconnect();
  }
});

describePackLifecycleConformance(
  eventingLifecycleAdapter('outbox', path.resolve(__dirname, '..'), redisStores(redisUrl, prefixes)),
);
