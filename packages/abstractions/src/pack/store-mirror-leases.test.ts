import type { KeyedStore, PutOptions, StoredRecord } from './stores';
import { leaseIsLive, StoreLeases, type LeaseRecord } from './store-leases';
import { StoreMirror } from './store-mirror';

/** A versioned in-memory keyed store (compare-and-set as every provider does it), for these helpers only. */
function versionedStore<T>(name = 'test'): KeyedStore<T> & { lists: number } {
  const records = new Map<string, StoredRecord<T>>();
  const store = {
    name,
    lists: 0,
    async get(key: string) {
      return records.get(key);
    },
    async list() {
      store.lists += 1;
      return [...records.values()].sort((a, b) => a.key.localeCompare(b.key));
    },
    async put(key: string, value: T, options?: PutOptions) {
      const current = records.get(key) ?? null;
      if (options?.expectedVersion !== undefined && (current?.version ?? 0) !== options.expectedVersion) {
        return { written: false as const, current };
      }
      const record = {
        key,
        value,
        version: (current?.version ?? 0) + 1,
        updatedAtUtc: new Date().toISOString(),
      };
      records.set(key, record);
      return { written: true as const, record };
    },
    async delete(key: string, options?: { expectedVersion?: number }) {
      const current = records.get(key);
      if (!current || (options?.expectedVersion !== undefined && current.version !== options.expectedVersion))
        return false;
      return records.delete(key);
    },
    async count() {
      return records.size;
    },
  };
  return store;
}

describe('work leases', () => {
  it('a lease is live until it expires; none and an empty owner never are', () => {
    expect(leaseIsLive({ owner: 'a', expiresAtMs: 1000 }, 999)).toBe(true);
    expect(leaseIsLive({ owner: 'a', expiresAtMs: 1000 }, 1000)).toBe(false);
    expect(leaseIsLive(null, 0)).toBe(false);
    expect(leaseIsLive({ owner: '', expiresAtMs: 1000 }, 0)).toBe(false);
  });

  it('a live lease refuses others and names its holder; once lapsed the next owner takes it over', async () => {
    let now = 0;
    const leases = new StoreLeases(versionedStore<LeaseRecord>(), () => now);
    const first = await leases.acquire('orders', 'replica-a', 'run-1', 1000);
    expect(first).toMatchObject({ acquired: true, record: { value: { takenOverFrom: null } } });
    expect(await leases.acquire('orders', 'replica-b', 'run-2', 1000)).toMatchObject({
      acquired: false,
      holder: { owner: 'replica-a', workId: 'run-1' },
    });
    now = 1000;
    expect(await leases.acquire('orders', 'replica-b', 'run-2', 1000)).toMatchObject({
      acquired: true,
      record: { value: { owner: 'replica-b', takenOverFrom: 'replica-a', expiresAtMs: 2000 } },
    });
  });

  it('of several replicas taking over one lapsed lease one wins, and none after the winner released it', async () => {
    let now = 0;
    const store = versionedStore<LeaseRecord>();
    const leases = new StoreLeases(store, () => now);
    await leases.acquire('orders', 'replica-that-died', 'run-1', 1000);
    const [lapsed] = await leases.list();
    now = 5000;
    const attempts = await Promise.all(
      ['replica-b', 'replica-c', 'replica-d'].map((owner) => leases.takeOver(lapsed!, owner, 1000)),
    );
    const winners = attempts.filter((record) => record !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.value).toMatchObject({ workId: 'run-1', takenOverFrom: 'replica-that-died' });
    expect(await leases.release(winners[0]!)).toBe(true);
    expect(await leases.takeOver(lapsed!, 'replica-e', 1000)).toBeNull();
    expect(await store.count()).toBe(0);
  });

  it('a renewal extends a held lease and fails once another owner took it', async () => {
    let now = 0;
    const leases = new StoreLeases(versionedStore<LeaseRecord>(), () => now);
    const held = await leases.acquire('orders', 'replica-a', 'run-1', 1000);
    if (!held.acquired) throw new Error('not acquired');
    now = 500;
    const renewed = await leases.renew(held.record, 1000);
    expect(renewed?.value.expiresAtMs).toBe(1500);
    now = 2000;
    await leases.acquire('orders', 'replica-b', 'run-2', 1000);
    expect(await leases.renew(renewed!, 1000)).toBeNull();
    expect(await leases.release(renewed!)).toBe(false);
  });
});

describe('store mirror', () => {
  it('reads what this process writes at once and what others write after a load', async () => {
    const store = versionedStore<{ count: number }>();
    const mirror = new StoreMirror(store, { refreshMs: 1000 });
    await mirror.start(false);
    await mirror.update('a', (current) => ({ count: (current?.count ?? 0) + 1 }));
    expect(mirror.get('a')).toEqual({ count: 1 });
    await store.put('b', { count: 7 });
    expect(mirror.get('b')).toBeUndefined();
    await mirror.load();
    expect(mirror.values()).toEqual([{ count: 1 }, { count: 7 }]);
    await store.delete('b');
    await mirror.load();
    expect(mirror.get('b')).toBeUndefined();
  });

  it('a compare-and-set update loses no concurrent write', async () => {
    const store = versionedStore<{ count: number }>();
    const first = new StoreMirror(store, { refreshMs: 1000 });
    const second = new StoreMirror(store, { refreshMs: 1000 });
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        (index % 2 === 0 ? first : second).update('a', (current) => ({ count: (current?.count ?? 0) + 1 })),
      ),
    );
    expect((await store.get('a'))?.value).toEqual({ count: 10 });
  });

  it('with refresh on, re-reads the store on its interval until stopped', async () => {
    const store = versionedStore<number>();
    const mirror = new StoreMirror(store, { refreshMs: 20 });
    await mirror.start(true);
    try {
      expect(mirror.refreshesOnInterval).toBe(true);
      await store.put('x', 1);
      for (let attempt = 0; attempt < 500 && mirror.get('x') === undefined; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(mirror.get('x')).toBe(1);
    } finally {
      mirror.stop();
    }
    expect(mirror.refreshesOnInterval).toBe(false);
  });
});
