import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { requireService } from '@corekit/testing/require-service';
import { describeStoreSchemaConformance } from '@corekit/testing/store-schema-suite';
import { RedisStoreProvider } from './redis-store-provider';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Every key of this file starts with it; all are deleted at the end. */
const runPrefix = `corekit:schema-test:${process.pid}-${randomBytes(3).toString('hex')}:`;
let prefixes = 0;
const prefixOf = (index: number) => `${runPrefix}${index}:`;

beforeAll(async () => {
  if (!(await requireService('Redis', redisUrl, 'REDIS_URL')))
    throw new Error(`Redis is not reachable at ${redisUrl}: these tests need it`);
});

afterAll(async () => {
  const client = new Redis(redisUrl);
  try {
    const keys = await client.keys(`${runPrefix}*`);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
});

describeStoreSchemaConformance('RedisStoreProvider', {
  provider: () => new RedisStoreProvider({ url: redisUrl, keyPrefix: prefixOf((prefixes += 1)) }),
  release: (provider) => provider.close(),
  markLaterLayout: async () => {
    const keyPrefix = prefixOf(prefixes);
    const client = new Redis(redisUrl);
    try {
      await client.set(`${keyPrefix}layout`, '2');
    } finally {
      client.disconnect();
    }
    return new RedisStoreProvider({ url: redisUrl, keyPrefix });
  },
});
