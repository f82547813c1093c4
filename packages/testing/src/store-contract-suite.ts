import type { KeyedStore, StoreClock, StoreProvider } from '@corekit/abstractions';

/** A store clock that only moves when told to. */
export interface StoreTestClock extends StoreClock {
  advance(milliseconds: number): void;
}

/** A manual clock starting at `start` (epoch milliseconds). */
export function storeTestClock(start: number): StoreTestClock {
  let current = start;
  return {
    now: () => current,
    advance: (milliseconds) => {
      current += milliseconds;
    },
  };
}

/**
 * Makes a fresh provider on the given clock: its own state (own directory, table or key prefix), so two
 * providers from one factory never see each other's records.
 */
export type StoreProviderFactory = (options: {
  readonly clock: StoreTestClock;
  readonly defaultMaxEntries?: number;
}) => StoreProvider | Promise<StoreProvider>;

const start = Date.parse('2026-03-01T10:00:00Z');

async function codeOf(action: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).name;
  }
  return undefined;
}

/**
 * The semantics every provider of the store contract must keep (`@corekit/abstractions` stores), run against
 * `factory`'s providers: the memory, file, PostgreSQL and Redis providers all run this one suite.
 */
export function describeStoreContract(label: string, factory: StoreProviderFactory): void {
  describe(`store contract: ${label}`, () => {
    let clock: StoreTestClock;
    let provider: StoreProvider;
    let store: KeyedStore<{ n: number; tags?: string[] }>;

    beforeEach(async () => {
      clock = storeTestClock(start);
      provider = await factory({ clock });
      store = provider.open('things');
    });
    afterEach(async () => provider.close?.());

    it('gives a new key version 1, counts up on every write, stamps the clock time', async () => {
      expect(await store.get('a')).toBeUndefined();
      const first = await store.put('a', { n: 1 });
      expect(first).toEqual({
        written: true,
        record: { key: 'a', value: { n: 1 }, version: 1, updatedAtUtc: '2026-03-01T10:00:00.000Z' },
      });
      clock.advance(1500);
      const second = await store.put('a', { n: 2 });
      expect(second.written && second.record.version).toBe(2);
      expect(await store.get('a')).toEqual({
        key: 'a',
        value: { n: 2 },
        version: 2,
        updatedAtUtc: '2026-03-01T10:00:01.500Z',
      });
    });

    it('compare-and-set: 0 writes only when absent, a matching version writes, any other refuses', async () => {
      expect(await store.put('a', { n: 9 }, { expectedVersion: 3 })).toEqual({
        written: false,
        current: null,
      });
      expect((await store.put('a', { n: 1 }, { expectedVersion: 0 })).written).toBe(true);
      const refused = await store.put('a', { n: 2 }, { expectedVersion: 0 });
      expect(refused).toEqual({
        written: false,
        current: expect.objectContaining({ value: { n: 1 }, version: 1 }),
      });
      expect((await store.put('a', { n: 2 }, { expectedVersion: 2 })).written).toBe(false);
      const written = await store.put('a', { n: 2 }, { expectedVersion: 1 });
      expect(written.written && written.record).toMatchObject({ value: { n: 2 }, version: 2 });
      expect((await store.get('a'))?.value).toEqual({ n: 2 });
    });

    it('deletes, and with expectedVersion only while the key still holds that version', async () => {
      expect(await store.delete('a')).toBe(false);
      await store.put('a', { n: 1 });
      await store.put('a', { n: 2 });
      expect(await store.delete('a', { expectedVersion: 1 })).toBe(false);
      expect((await store.get('a'))?.version).toBe(2);
      expect(await store.delete('a', { expectedVersion: 2 })).toBe(true);
      expect(await store.get('a')).toBeUndefined();
      await store.put('b', { n: 1 });
      expect(await store.delete('b')).toBe(true);
      const again = await store.put('b', { n: 5 });
      expect(again.written && again.record.version).toBe(1);
    });

    it('drops a record when its TTL has passed: get, list, count and compare-and-set all see it absent', async () => {
      await store.put('lease', { n: 1 }, { ttlMs: 1000 });
      await store.put('kept', { n: 2 });
      clock.advance(999);
      expect((await store.get('lease'))?.value).toEqual({ n: 1 });
      expect(await store.count()).toBe(2);
      clock.advance(1);
      expect(await store.get('lease')).toBeUndefined();
      expect(await store.count()).toBe(1);
      expect((await store.list()).map((record) => record.key)).toEqual(['kept']);
      expect(await store.delete('lease')).toBe(false);
      const retaken = await store.put('lease', { n: 3 }, { expectedVersion: 0, ttlMs: 500 });
      expect(retaken.written && retaken.record.version).toBe(1);
      const renewed = await store.put('lease', { n: 4 }, { expectedVersion: 1 });
      clock.advance(10_000);
      expect(renewed.written && (await store.get('lease'))?.value).toEqual({ n: 4 });
    });

    it('refuses a new key beyond maxEntries with STORE_FULL; updates, freed and expired slots are fine', async () => {
      const bounded = provider.open<number>('bounded', { maxEntries: 2 });
      await bounded.put('a', 1);
      await bounded.put('b', 2, { ttlMs: 100 });
      expect(await codeOf(bounded.put('c', 3))).toBe('STORE_FULL');
      expect(await bounded.get('c')).toBeUndefined();
      expect((await bounded.put('a', 10)).written).toBe(true);
      clock.advance(100);
      expect((await bounded.put('c', 3)).written).toBe(true);
      expect(await codeOf(bounded.put('d', 4))).toBe('STORE_FULL');
      await bounded.delete('a');
      expect((await bounded.put('d', 4)).written).toBe(true);
      expect(await bounded.count()).toBe(2);
    });

    it("applies the provider's default bound when openStore gives none", async () => {
      const small = await factory({ clock, defaultMaxEntries: 3 });
      try {
        const defaulted = small.open<number>('defaulted');
        for (const key of ['a', 'b', 'c']) await defaulted.put(key, 1);
        expect(await codeOf(defaulted.put('d', 1))).toBe('STORE_FULL');
        expect((await small.open<number>('wider', { maxEntries: 5 }).put('x', 1)).written).toBe(true);
      } finally {
        await small.close?.();
      }
    });

    it('refuses empty, over-long and control-character keys with STORE_KEY_INVALID', async () => {
      for (const key of ['', 'k'.repeat(513), 'line\nbreak', 'nul\u0000', 'del\u007f', 'c1\u0085']) {
        expect(await codeOf(store.put(key, { n: 1 }))).toBe('STORE_KEY_INVALID');
        expect(await codeOf(store.get(key))).toBe('STORE_KEY_INVALID');
        expect(await codeOf(store.delete(key))).toBe('STORE_KEY_INVALID');
      }
      expect((await store.put('k'.repeat(512), { n: 1 })).written).toBe(true);
      expect((await store.put('tenant:é/ünïcode 🙂', { n: 1 })).written).toBe(true);
      expect(await store.count()).toBe(2);
    });

    it('refuses a store name that is not an identifier', async () => {
      for (const name of ['', '../escape', 'a/b', 'dot.ted', '1st', 'x'.repeat(101)]) {
        expect(await codeOf(() => provider.open(name))).toBe('STORE_KEY_INVALID');
      }
    });

    it('lists in key order, filtered by prefix, cut at limit', async () => {
      for (const key of ['b:2', 'a:1', 'b:1', 'c', 'b:3']) await store.put(key, { n: 1 });
      expect((await store.list()).map((record) => record.key)).toEqual(['a:1', 'b:1', 'b:2', 'b:3', 'c']);
      expect((await store.list({ prefix: 'b:' })).map((record) => record.key)).toEqual(['b:1', 'b:2', 'b:3']);
      expect((await store.list({ prefix: 'b:', limit: 2 })).map((record) => record.key)).toEqual([
        'b:1',
        'b:2',
      ]);
      expect(await store.list({ limit: 0 })).toEqual([]);
      expect(await store.list({ prefix: 'z' })).toEqual([]);
      expect(await store.count()).toBe(5);
    });

    it('keeps key order across updates, deletes and re-added keys between lists', async () => {
      for (const key of ['k:3', 'k:1', 'k:2']) await store.put(key, { n: 1 });
      expect((await store.list({ prefix: 'k:' })).map((record) => record.key)).toEqual(['k:1', 'k:2', 'k:3']);
      await store.put('k:2', { n: 2 });
      await store.delete('k:1');
      expect((await store.list({ prefix: 'k:' })).map((record) => [record.key, record.value])).toEqual([
        ['k:2', { n: 2 }],
        ['k:3', { n: 1 }],
      ]);
      await store.put('k:0', { n: 1 });
      await store.put('k:1', { n: 3 });
      await store.delete('k:3');
      await store.put('j', { n: 1 });
      expect((await store.list({ prefix: 'k:', limit: 2 })).map((record) => record.key)).toEqual([
        'k:0',
        'k:1',
      ]);
      expect((await store.list()).map((record) => record.key)).toEqual(['j', 'k:0', 'k:1', 'k:2']);
    });

    it('lists in JavaScript string order, with % and _ in a prefix taken literally', async () => {
      const keys = ['a_b', 'a%b', 'axb', 'Z', 'é', '\uFFFD', '🙂', 'a', 'a_', 'ab'];
      for (const key of keys) await store.put(key, { n: 1 });
      expect((await store.list()).map((record) => record.key)).toEqual([...keys].sort());
      expect((await store.list({ prefix: 'a_' })).map((record) => record.key)).toEqual(['a_', 'a_b']);
      expect((await store.list({ prefix: 'a%' })).map((record) => record.key)).toEqual(['a%b']);
      expect((await store.list({ prefix: '\uFFFD' })).map((record) => record.key)).toEqual(['\uFFFD']);
    });

    it('skips expired records before applying limit', async () => {
      await store.put('a', { n: 1 }, { ttlMs: 10 });
      await store.put('b', { n: 2 });
      await store.put('c', { n: 3 });
      clock.advance(10);
      expect((await store.list({ limit: 1 })).map((record) => record.key)).toEqual(['b']);
    });

    it('keeps JSON values exactly: null, strings, numbers, booleans, arrays, nested objects', async () => {
      const loose = provider.open<unknown>('json');
      const values: unknown[] = [
        null,
        '',
        'line\nbreak "quoted" \u0000 é 🙂',
        0,
        -1.5e-7,
        Number.MAX_SAFE_INTEGER,
        false,
        [],
        [1, [2, { three: null }]],
        { nested: { deeper: { list: ['x', true] } }, empty: {} },
      ];
      for (const [index, value] of values.entries()) await loose.put(`v${index}`, value);
      for (const [index, value] of values.entries()) {
        expect((await loose.get(`v${index}`))?.value).toEqual(value);
      }
    });

    it('copies values in and out: callers never hold stored state', async () => {
      const value = { n: 1, tags: ['x'] };
      const put = await store.put('a', value);
      value.tags.push('mutated after put');
      if (put.written) put.record.value.tags!.push('mutated result');
      const read = await store.get('a');
      read!.value.tags!.push('mutated read');
      (await store.list())[0].value.tags!.push('mutated list');
      expect((await store.get('a'))?.value).toEqual({ n: 1, tags: ['x'] });
    });

    it('refuses a value it cannot keep with STORE_VALUE_INVALID', async () => {
      const loose = provider.open<unknown>('loose');
      expect(await codeOf(loose.put('f', { run: () => 1 }))).toBe('STORE_VALUE_INVALID');
      expect(await codeOf(loose.put('s', Symbol('s')))).toBe('STORE_VALUE_INVALID');
      expect(await loose.count()).toBe(0);
    });

    it('shares records between handles of one name, never between names or provider instances', async () => {
      await store.put('a', { n: 1 });
      expect((await provider.open('things').get('a'))?.value).toEqual({ n: 1 });
      expect(await provider.open('others').get('a')).toBeUndefined();
      const another = await factory({ clock });
      try {
        expect(await another.open('things').get('a')).toBeUndefined();
      } finally {
        await another.close?.();
      }
    });

    it('serializes 100 concurrent compare-and-set increments: final value and version are exact', async () => {
      const counter = provider.open<number>('counter');
      const increment = async (): Promise<void> => {
        for (;;) {
          const current = await counter.get('n');
          const result = await counter.put('n', (current?.value ?? 0) + 1, {
            expectedVersion: current?.version ?? 0,
          });
          if (result.written) return;
        }
      };
      await Promise.all(Array.from({ length: 100 }, increment));
      expect(await counter.get('n')).toMatchObject({ value: 100, version: 100 });
    });

    it('throws RangeError for a negative expectedVersion, a non-positive ttlMs or limit', async () => {
      expect(await codeOf(store.put('a', { n: 1 }, { expectedVersion: -1 }))).toBe('RangeError');
      expect(await codeOf(store.put('a', { n: 1 }, { ttlMs: 0 }))).toBe('RangeError');
      expect(await codeOf(store.list({ limit: -1 }))).toBe('RangeError');
      expect(await codeOf(() => provider.open('zero', { maxEntries: 0 }))).toBe('RangeError');
    });
  });
}
