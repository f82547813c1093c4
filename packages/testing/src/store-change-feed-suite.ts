import {
  StoreMirror,
  type KeyedStore,
  type StoreChange,
  type StoreChangeListener,
  type StoreProvider,
} from '@corekit/abstractions';
import { pollUntil } from './poll-until';

/** What `describeStoreChangeFeed` needs of a provider with a change feed. */
export interface StoreChangeFeedSuite<P extends StoreProvider> {
  /** The feed's path (`StoreChangeFeedTraits.path`, and `state().path`). */
  readonly path: string;
  /**
   * Two providers on one namespace: a write through the first is announced on the second's feed. An
   * in-process provider (memory, file) answers the same instance twice: its writers are all in the process.
   */
  readonly pair: () => Promise<readonly [writer: P, watcher: P]>;
  /** Ends what `pair` opened. */
  readonly close: (providers: readonly P[]) => Promise<void>;
  /**
   * For a provider on a server: the server ends the watcher's listening connection (`pg_terminate_backend`,
   * `CLIENT KILL`), as a failover or an idle-connection reaper would.
   */
  readonly killFeedConnection?: (watcher: P) => Promise<void>;
  /**
   * Writes `value` to `key` of `store` behind the provider's back, so that no change is announced (a lost
   * notification). With `killFeedConnection`, the suite checks the catch-up read after the reconnect finds it.
   */
  readonly writeUnannounced?: (watcher: P, store: string, key: string, value: unknown) => Promise<void>;
}

const changeFields = new Set(['store', 'key', 'version', 'expiresAtMs', 'writtenAtMs']);

/** `pollUntil` that fails (showing the last value read) when `done` never held. */
async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { readonly timeoutMs?: number } = {},
): Promise<T> {
  const value = await pollUntil(read, done, { timeoutMs: options.timeoutMs ?? 10_000, intervalMs: 20 });
  if (!done(value)) throw new Error(`still not there after the wait: ${JSON.stringify(value)}`);
  return value;
}

/** A listener that records what it is told. */
function recorder() {
  const changes: StoreChange[] = [];
  const events: string[] = [];
  const listener: StoreChangeListener = {
    change: (change) => {
      changes.push(change);
    },
    connected: () => {
      events.push('connected');
    },
    disconnected: (reason) => {
      events.push(`disconnected: ${reason}`);
    },
  };
  return { changes, events, listener };
}

/** `store` with every `list` counted: a mirror on a feed reads single keys, not the whole store. */
function countingLists<T>(store: KeyedStore<T>): KeyedStore<T> & { lists: number } {
  const counted = {
    name: store.name,
    lists: 0,
    get: (key: string) => store.get(key),
    list: (options?: Parameters<KeyedStore<T>['list']>[0]) => {
      counted.lists += 1;
      return store.list(options);
    },
    put: (...args: Parameters<KeyedStore<T>['put']>) => store.put(...args),
    delete: (...args: Parameters<KeyedStore<T>['delete']>) => store.delete(...args),
    count: () => store.count(),
    watch: (listener: StoreChangeListener) => store.watch?.(listener),
  };
  return counted;
}

/**
 * The change-feed seam (store provider ↔ mirror), run by every provider with a feed: memory, file, PostgreSQL,
 * Redis. A write and a delete through one provider are announced on another's feed (key, version or deletion,
 * never the value; the expiry of a TTL write); a `StoreMirror` follows them by reading single keys; and, for a
 * provider on a server, the server killing the listening connection is reported (disconnected, then connected
 * again with `reconnects` counted) and the mirror's catch-up read finds a write whose notification was lost.
 */
export function describeStoreChangeFeed<P extends StoreProvider>(
  label: string,
  suite: StoreChangeFeedSuite<P>,
): void {
  describe(`store change feed: ${label}`, () => {
    let writer: P;
    let watcher: P;
    beforeEach(async () => {
      [writer, watcher] = await suite.pair();
    });
    afterEach(async () => suite.close(writer === watcher ? [writer] : [writer, watcher]));

    const connectedSubscription = async (store: KeyedStore<unknown>, listener: StoreChangeListener) => {
      const subscription = store.watch?.(listener);
      if (!subscription) throw new Error(`${label}: watch() gave no subscription`);
      await until(
        async () => subscription.state().connected,
        (connected) => connected,
        { timeoutMs: 10_000 },
      );
      return subscription;
    };

    it('declares its feed (contract version 1) and announces writes and deletes of another instance: key and version, never the value', async () => {
      expect(watcher.changeFeed).toEqual({ version: 1, path: suite.path });
      const { changes, listener } = recorder();
      const watched = watcher.open<{ secret: string }>('feed-things');
      const subscription = await connectedSubscription(watched, listener);
      expect(subscription.state()).toMatchObject({ path: suite.path, connected: true });
      expect(subscription.fullReadIntervalMs).toBeGreaterThan(0);
      try {
        const written = writer.open<{ secret: string }>('feed-things');
        await writer.open<number>('feed-other').put('elsewhere', 1);
        await written.put('a', { secret: 'never in a change' });
        await written.put('a', { secret: 'second' });
        await written.put('lease', { secret: 'x' }, { ttlMs: 60_000 });
        expect(await written.delete('a')).toBe(true);
        const seen = await until(
          async () => changes.map((change) => [change.key, change.version]),
          (keys) => keys.length >= 4,
          { timeoutMs: 10_000 },
        );
        expect(seen).toEqual([
          ['a', 1],
          ['a', 2],
          ['lease', 1],
          ['a', null],
        ]);
        for (const change of changes) {
          expect(change.store).toBe('feed-things');
          expect(Object.keys(change).every((field) => changeFields.has(field))).toBe(true);
        }
        expect(JSON.stringify(changes)).not.toContain('never in a change');
        expect(changes[2]!.expiresAtMs).toBeGreaterThan(Date.now());
        expect(changes[0]!.expiresAtMs).toBeUndefined();
      } finally {
        subscription.close();
      }
    });

    it('a StoreMirror on the feed follows another instance by reading single keys, and reports a measured bound', async () => {
      const watched = countingLists(watcher.open<number>('feed-mirrored'));
      const written = writer.open<number>('feed-mirrored');
      await written.put('before', 1);
      const mirror = new StoreMirror(watched, { refreshMs: 60_000 });
      await mirror.start(true);
      try {
        await until(
          async () => mirror.freshness().propagation,
          (propagation) => propagation === 'change-feed',
          { timeoutMs: 10_000 },
        );
        expect(mirror.get('before')).toBe(1);
        await until(
          async () => mirror.freshness().lastFullReadAtUtc,
          (at) => at !== null,
        );
        const lists = watched.lists;
        await written.put('after', 2);
        await written.put('before', 3);
        await until(
          async () => [mirror.get('after'), mirror.get('before')],
          ([after, before]) => after === 2 && before === 3,
          { timeoutMs: 10_000 },
        );
        await written.delete('after');
        await until(
          async () => mirror.get('after'),
          (after) => after === undefined,
          { timeoutMs: 10_000 },
        );
        expect(watched.lists).toBe(lists);
        const freshness = mirror.freshness();
        expect(freshness.stalenessBoundMs).toBeGreaterThanOrEqual(1);
        expect(freshness.basis).toContain(suite.path);
      } finally {
        mirror.stop();
      }
    });

    if (suite.killFeedConnection) {
      const kill = suite.killFeedConnection;
      it('says when the server kills its listening connection, connects again, and the catch-up read finds a lost notification', async () => {
        const watched = countingLists(watcher.open<string>('feed-killed'));
        const mirror = new StoreMirror(watched, { refreshMs: 60_000 });
        const { events, listener } = recorder();
        await mirror.start(true);
        const subscription = await connectedSubscription(watched, listener);
        try {
          await until(
            async () => mirror.freshness(),
            (freshness) => freshness.propagation === 'change-feed' && freshness.catchUpReads >= 1,
            { timeoutMs: 10_000 },
          );
          const catchUps = mirror.freshness().catchUpReads;
          await suite.writeUnannounced?.(watcher, 'feed-killed', 'missed', 'written while nobody listened');
          await kill(watcher);
          const state = await until(
            async () => subscription.state(),
            (current) => current.reconnects >= 1 && current.connected,
            { timeoutMs: 20_000 },
          );
          expect(state.lastError).toEqual(expect.any(String));
          expect(state.disconnectedAtMs).toEqual(expect.any(Number));
          expect(events.some((event) => event.startsWith('disconnected: '))).toBe(true);
          expect(events.at(-1)).toBe('connected');
          const freshness = await until(
            async () => mirror.freshness(),
            (current) => current.catchUpReads > catchUps && current.propagation === 'change-feed',
            { timeoutMs: 20_000 },
          );
          expect(freshness.feed).toMatchObject({ connected: true, reconnects: 1 });
          if (suite.writeUnannounced) {
            await until(
              async () => mirror.get('missed'),
              (value) => value === 'written while nobody listened',
              { timeoutMs: 10_000 },
            );
          }
          // Announced again after the reconnect.
          await writer.open<string>('feed-killed').put('later', 'seen');
          await until(
            async () => mirror.get('later'),
            (value) => value === 'seen',
            { timeoutMs: 10_000 },
          );
        } finally {
          subscription.close();
          mirror.stop();
        }
      }, 60_000);
    }
  });
}
