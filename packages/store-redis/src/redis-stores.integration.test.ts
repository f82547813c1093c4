import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { requireService } from '@corekit/testing/require-service';
import { describeSharedStoreProvider } from '@corekit/testing/shared-store-provider-suite';
import { storeTestClock } from '@corekit/testing/store-contract-suite';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addRedisStores } from './add-redis-stores';
import { memberOf } from './redis-keyed-store';
import { RedisStoreProvider } from './redis-store-provider';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Every key of this run starts with it, so parallel runs never share a key; all are deleted at the end. */
const runPrefix = `corekit-test:${process.pid}-${randomBytes(3).toString('hex')}:`;
let prefixCount = 0;
const freshPrefix = (): string => `${runPrefix}${++prefixCount}:`;
let available: boolean | undefined;

async function ensureAvailable(): Promise<void> {
  available ??= await requireService('Redis', redisUrl, 'REDIS_URL');
  if (!available) throw new Error(`Redis is not reachable at ${redisUrl}: these tests need it`);
}

beforeAll(ensureAvailable);

afterAll(async () => {
  if (!available) return;
  const client = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${runPrefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
});

describeSharedStoreProvider('RedisStoreProvider', {
  kind: 'redis',
  freshNamespace: freshPrefix,
  provider: async (keyPrefix, options) => {
    await ensureAvailable();
    return new RedisStoreProvider({ url: redisUrl, keyPrefix, ...options });
  },
  replicas: { packageDirectory: path.resolve(__dirname, '..'), environment: { REDIS_URL: redisUrl } },
  telemetry: { system: 'redis', operations: ['EVALSHA', 'HGET'] },
  unreachable: {
    provider: () =>
      new RedisStoreProvider({ url: 'redis://app:s3cr3t-pw@127.0.0.1:1/0', connectTimeoutMs: 500 }),
    secret: 's3cr3t-pw',
    message:
      /Redis store "things" failed on 127\.0\.0\.1:1: not reachable \(connect ECONNREFUSED 127\.0\.0\.1:1\)/,
  },
  changeFeed: {
    path: 'redis-pubsub',
    killFeedConnection: async (provider) => {
      const client = new Redis(redisUrl);
      try {
        const clients = String(await client.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
        const ids = clients
          .split('\n')
          .filter((line) => line.includes(` name=${provider.feedConnectionName} `))
          .map((line) => /(?:^|\s)id=(\d+)/.exec(line)![1]);
        if (ids.length === 0) throw new Error('no subscribing connection to kill');
        for (const id of ids) await client.call('CLIENT', 'KILL', 'ID', id);
      } finally {
        client.disconnect();
      }
    },
    writeUnannounced: async (provider, store, key, value) => {
      // The record as the put script writes it, without its PUBLISH: a lost notification.
      const client = new Redis(redisUrl);
      try {
        const base = `${provider.keyPrefix}{${store}}`;
        const record = `1\n${Date.now()}\n\n${key}\n${JSON.stringify(value)}`;
        await client.hset(`${base}:r`, memberOf(key), record);
        await client.zadd(`${base}:k`, 0, memberOf(key));
      } finally {
        client.disconnect();
      }
    },
  },
  registration: {
    section: (keyPrefix) => ({ Redis: { Url: redisUrl, KeyPrefix: keyPrefix } }),
    add: (builder) => addRedisStores(builder),
  },
});

describe('RedisStoreProvider on its server', () => {
  it('removes expired records lazily on the next write, under its key prefix only', async () => {
    const prefix = freshPrefix();
    const clock = storeTestClock(Date.parse('2026-03-01T10:00:00Z'));
    const provider = new RedisStoreProvider({ url: redisUrl, keyPrefix: prefix, clock });
    const client = new Redis(redisUrl);
    try {
      const store = provider.open<number>('replay');
      for (let index = 0; index < 5; index++) await store.put(`k${index}`, index, { ttlMs: 100 });
      expect(await client.hlen(`${prefix}{replay}:r`)).toBe(5);
      clock.advance(100);
      await store.put('fresh', 1);
      expect(await client.hlen(`${prefix}{replay}:r`)).toBe(1);
      expect(await client.zcard(`${prefix}{replay}:k`)).toBe(1);
      expect(await client.zcard(`${prefix}{replay}:x`)).toBe(0);
    } finally {
      await provider.close();
      client.disconnect();
    }
  });

  it('lists across the script batches in key order: whole, by prefix, with a limit, expired records left out', async () => {
    const clock = storeTestClock(Date.parse('2026-03-01T10:00:00Z'));
    const provider = new RedisStoreProvider({ url: redisUrl, keyPrefix: freshPrefix(), clock });
    try {
      const store = provider.open<number>('many');
      const key = (group: string, index: number) => `${group}:${String(index).padStart(5, '0')}`;
      const writes: Promise<unknown>[] = [];
      for (let index = 0; index < 1_700; index++) writes.push(store.put(key('a', index), index));
      for (let index = 0; index < 1_300; index++)
        writes.push(store.put(key('b', index), index, index % 2 === 0 ? { ttlMs: 1_000 } : undefined));
      await Promise.all(writes);
      clock.advance(1_000);
      const all = await store.list();
      expect(all).toHaveLength(1_700 + 650);
      expect(all.map((record) => record.key)).toEqual([...all.map((record) => record.key)].sort());
      const b = await store.list({ prefix: 'b:' });
      expect(b).toHaveLength(650);
      expect(b.every((record) => record.value % 2 === 1)).toBe(true);
      const limited = await store.list({ prefix: 'a:', limit: 1_234 });
      expect(limited.map((record) => record.value)).toEqual(
        Array.from({ length: 1_234 }, (_, index) => index),
      );
    } finally {
      await provider.close();
    }
  });

  it('runs its scripts again after SCRIPT FLUSH (EVALSHA falls back to EVAL)', async () => {
    const provider = new RedisStoreProvider({ url: redisUrl, keyPrefix: freshPrefix() });
    const client = new Redis(redisUrl);
    try {
      const store = provider.open<number>('flushed');
      await store.put('a', 1);
      await client.script('FLUSH');
      expect((await store.put('a', 2, { expectedVersion: 1 })).written).toBe(true);
      expect(await store.count()).toBe(1);
    } finally {
      await provider.close();
      client.disconnect();
    }
  });
});

describe('addRedisStores', () => {
  it('refuses an unknown key of its section, and Provider PostgreSql together with addRedisStores', () => {
    const typo = createTestEngineBuilder({
      configuration: {
        Engine: { Stores: { Redis: { Url: 'redis://:hidden-pw@cache:6379', KeyPrefx: 'x' } } },
      },
    }).builder;
    expect(() => addRedisStores(typo)).toThrow(/Engine:Stores:Redis.*KeyPrefx/);
    expect(() =>
      addRedisStores(createTestEngineBuilder().builder, { Url: redisUrl, KeyPrefix: 'a b' }),
    ).toThrow(/KeyPrefix/);
    const conflicting = createTestEngineBuilder({
      configuration: { Engine: { Stores: { Provider: 'PostgreSql', Redis: { Url: redisUrl } } } },
    }).builder;
    addRedisStores(conflicting);
    expect(() => conflicting.build()).toThrow(
      /Engine:Stores:Provider is PostgreSql, but a package installed the redis/,
    );
  });
});
