import type {
  StoreChange,
  StoreChangeFeedState,
  StoreChangeListener,
  StoreChangeSubscription,
} from '@corekit/abstractions';

/** What a feed tells the subscriptions `StoreChangeListeners.subscribe` hands out. */
export interface StoreChangeFeedSide {
  /** The feed's state now (`StoreChangeSubscription.state`). */
  readonly state: () => StoreChangeFeedState;
  /** The safety-net interval told to subscribers. */
  readonly fullReadIntervalMs: number;
  /** Called when the last subscription of every store closed: a feed may release its connection then. */
  readonly lastClosed?: () => void;
}

/**
 * The subscribers of one provider's change feed, by store: what every feed (in-process, PostgreSQL, Redis) keeps
 * the same way. A change goes to the listeners of its store; `connected` and `disconnected` to every listener. A
 * listener that throws does not stop the others: its failure is its own.
 */
export class StoreChangeListeners {
  private readonly byStore = new Map<string, Set<StoreChangeListener>>();

  /** True when no store has a listener. */
  get empty(): boolean {
    return this.byStore.size === 0;
  }

  /** Adds `listener` to `store`'s and answers its subscription; closing it removes the listener. */
  subscribe(
    store: string,
    listener: StoreChangeListener,
    feed: StoreChangeFeedSide,
  ): StoreChangeSubscription {
    let listeners = this.byStore.get(store);
    if (!listeners) {
      listeners = new Set();
      this.byStore.set(store, listeners);
    }
    listeners.add(listener);
    const own = listeners;
    return {
      state: feed.state,
      fullReadIntervalMs: feed.fullReadIntervalMs,
      close: () => {
        own.delete(listener);
        if (own.size === 0 && this.byStore.get(store) === own) this.byStore.delete(store);
        if (this.empty) feed.lastClosed?.();
      },
    };
  }

  /** Hands `change` to the listeners of its store. */
  deliver(change: StoreChange): void {
    for (const listener of this.byStore.get(change.store) ?? []) guarded(() => listener.change(change));
  }

  /** Calls `call` with every listener of every store (to tell them `connected` or `disconnected`). */
  each(call: (listener: StoreChangeListener) => void): void {
    for (const listeners of this.byStore.values()) {
      for (const listener of listeners) guarded(() => call(listener));
    }
  }
}

/** The state of a feed that has not connected yet. */
export function unconnectedFeedState(path: string): StoreChangeFeedState {
  return {
    path,
    connected: false,
    connectedAtMs: null,
    disconnectedAtMs: null,
    reconnects: 0,
    roundTripMs: 0,
    lastError: null,
  };
}

/** The state after the feed (re)connected, its subscribe command having taken `roundTripMs`. */
export function connectedFeedState(current: StoreChangeFeedState, roundTripMs: number): StoreChangeFeedState {
  const reconnect = current.connectedAtMs !== null;
  return {
    ...current,
    connected: true,
    connectedAtMs: Date.now(),
    reconnects: current.reconnects + (reconnect ? 1 : 0),
    roundTripMs,
  };
}

function guarded(call: () => void): void {
  try {
    call();
  } catch {
    /* a listener's failure is its own */
  }
}
