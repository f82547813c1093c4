import type {
  StoreChange,
  StoreChangeFeedState,
  StoreChangeListener,
  StoreChangeSubscription,
} from './store-change-feed';
import { StoreMirror } from './store-mirror';
import type { KeyedStore, PutOptions, StoredRecord } from './stores';

/** A versioned keyed store whose feed the test drives: it connects, drops and announces on command. */
function feedStore(options: { readonly feed?: boolean } = {}) {
  const records = new Map<string, StoredRecord<string> & { expiresAtMs?: number }>();
  const listeners = new Set<StoreChangeListener>();
  let state: StoreChangeFeedState = {
    path: 'test-feed',
    connected: false,
    connectedAtMs: null,
    disconnectedAtMs: null,
    reconnects: 0,
    roundTripMs: 3,
    lastError: null,
  };
  const calls = { get: 0, list: 0 };
  let now = Date.now();
  type Held = StoredRecord<string> & { expiresAtMs?: number };
  const live = (record: Held | undefined): Held | undefined =>
    record && (record.expiresAtMs === undefined || now < record.expiresAtMs) ? record : undefined;
  const store: KeyedStore<string> = {
    name: 'things',
    async get(key) {
      calls.get += 1;
      return live(records.get(key));
    },
    async list() {
      calls.list += 1;
      return [...records.values()].filter((record) => live(record));
    },
    async put(key, value, putOptions?: PutOptions) {
      const version = (live(records.get(key))?.version ?? 0) + 1;
      const record = {
        key,
        value,
        version,
        updatedAtUtc: new Date(now).toISOString(),
        ...(putOptions?.ttlMs ? { expiresAtMs: now + putOptions.ttlMs } : {}),
      };
      records.set(key, record);
      return { written: true, record };
    },
    async delete(key) {
      return records.delete(key);
    },
    async count() {
      return records.size;
    },
    ...(options.feed === false
      ? {}
      : {
          watch(listener: StoreChangeListener): StoreChangeSubscription {
            listeners.add(listener);
            return {
              state: () => state,
              fullReadIntervalMs: 60_000,
              close: () => listeners.delete(listener),
            };
          },
        }),
  };
  return {
    store,
    calls,
    records,
    advance(ms: number) {
      now += ms;
    },
    now: () => now,
    /** A write of another replica: in the store, then announced. */
    async writeElsewhere(key: string, value: string, ttlMs?: number) {
      const result = await store.put(key, value, ttlMs ? { ttlMs } : undefined);
      const record = result.written ? result.record : undefined;
      this.announce({
        store: 'things',
        key,
        version: record!.version,
        ...(ttlMs ? { expiresAtMs: now + ttlMs } : {}),
      });
    },
    announce(change: StoreChange) {
      for (const listener of listeners) listener.change(change);
    },
    connect() {
      state = {
        ...state,
        connected: true,
        connectedAtMs: now,
        reconnects: state.connectedAtMs === null ? 0 : state.reconnects + 1,
      };
      for (const listener of listeners) listener.connected?.();
    },
    drop(reason: string) {
      state = { ...state, connected: false, disconnectedAtMs: now, lastError: reason };
      for (const listener of listeners) listener.disconnected?.(reason);
    },
  };
}

/** Waits (at most 5 s) for a condition the mirror's timers and reads bring about. */
const settle = async (until: () => boolean): Promise<void> => {
  const deadline = Date.now() + 5000;
  while (!until() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(until()).toBe(true);
};

describe('StoreMirror on a change feed', () => {
  it('applies a write of another replica by reading that key only, and measures the delay', async () => {
    const fixture = feedStore();
    await fixture.store.put('a', 'one');
    const mirror = new StoreMirror(fixture.store, { refreshMs: 1000, now: fixture.now });
    await mirror.start(true);
    fixture.connect();
    await settle(() => fixture.calls.list === 2);
    expect(mirror.freshness()).toMatchObject({
      propagation: 'change-feed',
      stalenessBoundMs: 6,
      fullReadIntervalMs: 60_000,
    });
    const lists = fixture.calls.list;
    fixture.advance(40);
    await fixture.writeElsewhere('b', 'two');
    await settle(() => mirror.get('b') === 'two');
    expect(fixture.calls.list).toBe(lists);
    expect(mirror.freshness()).toMatchObject({ propagation: 'change-feed', stalenessBoundMs: 1 });
    expect(mirror.freshness().basis).toMatch(/measured over the last 1 changes/);
    mirror.stop();
  });

  it('never rolls the copy back: an announced older version, or a write the owner remembered meanwhile, stays', async () => {
    const fixture = feedStore();
    const mirror = new StoreMirror(fixture.store, { refreshMs: 1000, now: fixture.now });
    await mirror.start(true);
    fixture.connect();
    await fixture.store.put('a', 'v1');
    const written = await fixture.store.put('a', 'v2');
    mirror.remember(written.written ? written.record : (undefined as never));
    const getsBefore = fixture.calls.get;
    fixture.announce({ store: 'things', key: 'a', version: 1 });
    expect(fixture.calls.get).toBe(getsBefore);

    // A read in flight when the owner writes: the owner's newer record wins over what the read found.
    fixture.announce({ store: 'things', key: 'a', version: 3 });
    const third = await fixture.store.put('a', 'v3-owner');
    mirror.remember(third.written ? third.record : (undefined as never));
    await settle(() => fixture.calls.get > getsBefore);
    await new Promise((resolve) => setImmediate(resolve));
    expect(mirror.record('a')).toMatchObject({ value: 'v3-owner', version: 3 });
    mirror.stop();
  });

  it('drops a deleted key, and takes a key created again at version 1 after its deletion', async () => {
    const fixture = feedStore();
    await fixture.store.put('a', 'old');
    await fixture.store.put('a', 'older');
    const mirror = new StoreMirror(fixture.store, { refreshMs: 1000, now: fixture.now });
    await mirror.start(true);
    fixture.connect();
    expect(mirror.record('a')?.version).toBe(2);
    await fixture.store.delete('a');
    fixture.announce({ store: 'things', key: 'a', version: null });
    await fixture.writeElsewhere('a', 'new');
    await settle(() => mirror.get('a') === 'new');
    expect(mirror.record('a')?.version).toBe(1);
    await fixture.store.delete('a');
    fixture.announce({ store: 'things', key: 'a', version: null });
    await settle(() => mirror.get('a') === undefined);
    mirror.stop();
  });

  it('drops a record once its TTL has passed, without a notification of the expiry', async () => {
    const fixture = feedStore();
    const mirror = new StoreMirror(fixture.store, { refreshMs: 1000, now: fixture.now });
    await mirror.start(true);
    fixture.connect();
    await fixture.writeElsewhere('lease', 'held', 20);
    await settle(() => mirror.get('lease') === 'held');
    fixture.advance(25);
    await settle(() => mirror.get('lease') === undefined);
    mirror.stop();
  });

  it('says when the feed is down (polling bound), and reads the whole store again once it is back', async () => {
    const fixture = feedStore();
    const mirror = new StoreMirror(fixture.store, { refreshMs: 25, now: fixture.now });
    await mirror.start(true);
    fixture.connect();
    await settle(() => fixture.calls.list === 2);
    expect(mirror.refreshesOnInterval).toBe(true);
    fixture.drop('connection terminated');
    expect(mirror.freshness()).toMatchObject({
      propagation: 'change-feed-down',
      stalenessBoundMs: 25,
      feed: { connected: false, lastError: 'connection terminated' },
    });
    expect(mirror.freshness().basis).toMatch(/test-feed is down \(connection terminated\)/);
    // Missed while down: no announcement, but the polling reads find it.
    await fixture.store.put('missed', 'x');
    await settle(() => mirror.get('missed') === 'x');
    const lists = fixture.calls.list;
    fixture.connect();
    await settle(() => fixture.calls.list === lists + 1);
    expect(mirror.freshness()).toMatchObject({
      propagation: 'change-feed',
      catchUpReads: 2,
      feed: { connected: true, reconnects: 1 },
    });
    mirror.stop();
  });

  it('reads the whole store every refreshMs when the provider has no feed, or the feed is switched off', async () => {
    for (const [fixture, useChangeFeed] of [
      [feedStore({ feed: false }), true],
      [feedStore(), false],
    ] as const) {
      const mirror = new StoreMirror(fixture.store, { refreshMs: 20, useChangeFeed, now: fixture.now });
      await mirror.start(true);
      expect(mirror.freshness()).toMatchObject({ propagation: 'interval', stalenessBoundMs: 20, feed: null });
      await fixture.store.put('a', 'x');
      await settle(() => mirror.get('a') === 'x');
      mirror.stop();
    }
    const local = new StoreMirror(feedStore().store, { refreshMs: 20 });
    await local.start(false);
    expect(local.freshness()).toMatchObject({ propagation: 'local', stalenessBoundMs: null });
  });
});
