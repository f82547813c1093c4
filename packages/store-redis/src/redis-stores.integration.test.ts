import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  createTestEngineBuilder,
  describeStoreContract,
  requireService,
  startFixture,
  storeTestClock,
  type FixtureProcess,
} from '@corekit/testing';
import { addRedisStores } from './add-redis-stores';
import { RedisStoreProvider } from './redis-store-provider';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const packageDirectory = path.resolve(__dirname, '..');
/** Every key of this run starts with it, so parallel runs never share a key; all are deleted at the end. */
const runPrefix = `corekit-test:${process.pid}-${randomBytes(3).toString('hex')}:`;
let prefixCount = 0;
const freshPrefix = (): string => `${runPrefix}${++prefixCount}:`;
let available: boolean | undefined;
const children: FixtureProcess[] = [];

async function ensureAvailable(): Promise<void> {
  available ??= await requireService('Redis', redisUrl, 'REDIS_URL');
  if (!available) throw new Error(`Redis is not reachable at ${redisUrl}: these tests need it`);
}

beforeAll(ensureAvailable);

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    await child.exited;
  }
});

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

describeStoreContract('RedisStoreProvider', async (options) => {
  await ensureAvailable();
  return new RedisStoreProvider({ url: redisUrl, keyPrefix: freshPrefix(), ...options });
});

describe('RedisStoreProvider across processes and instances', () => {
  it('says what it is: redis, durable (Redis persistence), shared', () => {
    expect(new RedisStoreProvider({ url: redisUrl })).toMatchObject({
      kind: 'redis',
      durable: true,
      shared: true,
    });
  });

  it('two processes incrementing one key by compare-and-set lose no update', async () => {
    const prefix = freshPrefix();
    const setup = new RedisStoreProvider({ url: redisUrl, keyPrefix: prefix });
    try {
      const environment = { REDIS_URL: redisUrl, STORE_PREFIX: prefix, INCREMENTS: '100' };
      const processes = [0, 1].map(() => startFixture(packageDirectory, 'increment-process.ts', environment));
      children.push(...processes);
      await Promise.all(processes.map((child) => child.waitForLine('DONE', 60_000)));
      expect(await Promise.all(processes.map((child) => child.exited))).toEqual([0, 0]);
      const retries = processes.map((child) => Number(/RETRIES (\d+)/.exec(child.lines.join('\n'))![1]));
      expect(retries[0] + retries[1]).toBeGreaterThan(0);
      expect(await setup.open<number>('counter').get('n')).toMatchObject({ value: 200, version: 200 });
    } finally {
      await setup.close();
    }
  }, 90_000);

  it('sees one store from two providers with their own clients: versions, TTL and STORE_FULL hold across them', async () => {
    const prefix = freshPrefix();
    const clock = storeTestClock(Date.parse('2026-03-01T10:00:00Z'));
    const first = new RedisStoreProvider({ url: redisUrl, keyPrefix: prefix, clock });
    const second = new RedisStoreProvider({ url: redisUrl, keyPrefix: prefix, clock });
    try {
      const a = first.open<string>('leases', { maxEntries: 2 });
      const b = second.open<string>('leases', { maxEntries: 2 });
      expect((await a.put('lease', 'first', { expectedVersion: 0, ttlMs: 1000 })).written).toBe(true);
      expect(await b.put('lease', 'second', { expectedVersion: 0 })).toMatchObject({
        written: false,
        current: { value: 'first', version: 1 },
      });
      await b.put('other', 'b');
      await expect(a.put('third', 'a')).rejects.toMatchObject({ code: 'STORE_FULL' });
      clock.advance(1000);
      expect(await b.get('lease')).toBeUndefined();
      expect(await a.count()).toBe(1);
      expect((await b.put('lease', 'second', { expectedVersion: 0 })).written).toBe(true);
      expect((await a.get('lease'))?.value).toBe('second');
      await expect(b.put('third', 'b')).rejects.toMatchObject({ code: 'STORE_FULL' });
    } finally {
      await first.close();
      await second.close();
    }
  });

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

  it('reconnects after close (the engine closes on stop; a later start uses the stores again)', async () => {
    const provider = new RedisStoreProvider({ url: redisUrl, keyPrefix: freshPrefix() });
    const store = provider.open<number>('again');
    await store.put('a', 1);
    await provider.close();
    expect((await store.get('a'))?.value).toBe(1);
    await provider.close();
  });

  it('fails a call on an unreachable server with STORE_UNAVAILABLE naming the server, never the password', async () => {
    const provider = new RedisStoreProvider({
      url: 'redis://app:s3cr3t-pw@127.0.0.1:1/0',
      connectTimeoutMs: 500,
    });
    const error = await provider
      .open('things')
      .put('a', 1)
      .then(
        () => undefined,
        (caught: Error & { code?: string }) => caught,
      );
    expect(error?.code).toBe('STORE_UNAVAILABLE');
    expect(error?.message).toMatch(
      /Redis store "things" failed on 127\.0\.0\.1:1: not reachable \(connect ECONNREFUSED 127\.0\.0\.1:1\)/,
    );
    expect(JSON.stringify({ message: error?.message, stack: error?.stack })).not.toContain('s3cr3t-pw');
    await provider.close();
  });
});

describe('addRedisStores', () => {
  it('serves stores opened before it and closes the client when the engine stops', async () => {
    const prefix = freshPrefix();
    const { builder } = createTestEngineBuilder({
      configuration: { Engine: { Stores: { Redis: { Url: redisUrl, KeyPrefix: prefix } } } },
    });
    const early = builder.openStore<{ n: number }>('early');
    const provider = addRedisStores(builder);
    const engine = builder.build();
    expect(builder.storeTraits()).toEqual({ kind: 'redis', durable: true, shared: true });
    await engine.start();
    await early.put('a', { n: 1 });
    const direct = new RedisStoreProvider({ url: redisUrl, keyPrefix: prefix });
    expect((await direct.open<{ n: number }>('early').get('a'))?.value).toEqual({ n: 1 });
    await direct.close();
    const closed = jest.spyOn(provider, 'close');
    await engine.stop();
    expect(closed).toHaveBeenCalledTimes(1);
  });

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
