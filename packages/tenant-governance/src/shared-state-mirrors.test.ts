import type {
  KeyedStore,
  StoreChangeFeedState,
  StoreChangeListener,
  StoreChangeSubscription,
} from '@corekit/abstractions';
import { MemoryStoreProvider } from '@corekit/engine-core';
import { captureLogger } from '@corekit/testing/capture-logger';
import { pollUntil } from '@corekit/testing/poll-until';
import { SharedStateMirrors } from './shared-state-mirrors';

/** A memory store whose change feed the test connects and drops. */
function droppableFeed(name: string) {
  const store = new MemoryStoreProvider().open<string>(name);
  let listener: StoreChangeListener | undefined;
  let state: StoreChangeFeedState = {
    path: 'test-feed',
    connected: true,
    connectedAtMs: Date.now(),
    disconnectedAtMs: null,
    reconnects: 0,
    roundTripMs: 2,
    lastError: null,
  };
  const watched: KeyedStore<string> = {
    name,
    get: (key) => store.get(key),
    list: (options) => store.list(options),
    put: (key, value, options) => store.put(key, value, options),
    delete: (key, options) => store.delete(key, options),
    count: () => store.count(),
    watch(added): StoreChangeSubscription {
      listener = added;
      return { state: () => state, fullReadIntervalMs: 300_000, close: () => undefined };
    },
  };
  return {
    store: watched,
    drop() {
      state = { ...state, connected: false, disconnectedAtMs: Date.now(), lastError: 'terminated' };
      listener?.disconnected?.('terminated');
    },
    connect() {
      state = { ...state, connected: true, reconnects: state.reconnects + 1 };
      listener?.connected?.();
    },
  };
}

describe('SharedStateMirrors', () => {
  it('reports store-on-write, with no bound, when the store provider is not shared', async () => {
    const mirrors = new SharedStateMirrors(5, captureLogger());
    mirrors.mirror(droppableFeed('one').store);
    await mirrors.start(false);
    expect(mirrors.freshness()).toMatchObject({
      summarySource: 'store-on-write',
      summaryMaxStalenessSeconds: null,
      summaryRefreshedAtUtc: null,
      sharedStatePropagation: 'local',
      sharedStateStalenessBoundMilliseconds: null,
      sharedStateFeedConnected: null,
    });
    mirrors.stop();
  });

  it('reports the store that lags most: one feed down makes every summary report polling and its interval', async () => {
    const mirrors = new SharedStateMirrors(5, captureLogger());
    const healthy = droppableFeed('tenant-governance-memberships');
    const dropping = droppableFeed('tenant-governance-retry-queue');
    mirrors.mirror(healthy.store);
    mirrors.mirror(dropping.store);
    await mirrors.start(true);
    expect(mirrors.feedConnected).toBe(true);
    expect(mirrors.freshness()).toMatchObject({
      summarySource: 'shared-store-change-feed',
      summaryMaxStalenessSeconds: 1,
      sharedStatePropagation: 'change-feed',
      sharedStateStalenessBoundMilliseconds: 4,
      sharedStateFeedConnected: true,
      sharedStateLastFullReadAtUtc: expect.any(String),
    });

    dropping.drop();
    const down = mirrors.freshness();
    expect(mirrors.feedConnected).toBe(false);
    expect(down).toMatchObject({
      summarySource: 'shared-store-refresh',
      summaryMaxStalenessSeconds: 5,
      sharedStatePropagation: 'change-feed-down',
      sharedStateStalenessBoundMilliseconds: 5000,
      sharedStateFeedConnected: false,
    });
    expect(down.sharedStateStalenessBasis).toMatch(
      /test-feed is down \(terminated\).*tenant-governance-retry-queue/,
    );

    dropping.connect();
    expect(mirrors.freshness()).toMatchObject({
      sharedStatePropagation: 'change-feed',
      sharedStateFeedConnected: true,
    });
    mirrors.stop();
  });

  it('takes this process writes at once and, after a reconnection, reads the store whole (the catch-up)', async () => {
    const mirrors = new SharedStateMirrors(5, captureLogger());
    const feed = droppableFeed('items');
    const mirror = mirrors.mirror(feed.store);
    await mirrors.start(true);
    const written = await feed.store.put('mine', 'mine');
    if (written.written) mirror.remember(written.record);
    expect(mirror.values()).toEqual(['mine']);

    feed.drop();
    // Written by "another replica" while nobody listened: no change announced.
    await feed.store.put('missed', 'missed');
    feed.connect();
    await pollUntil(
      async () => mirror.values(),
      (values) => values.includes('missed'),
      { timeoutMs: 5000, intervalMs: 5 },
    );
    expect(mirror.values().sort()).toEqual(['mine', 'missed']);
    mirrors.stop();
  });
});
