import {
  defaultFullReadIntervalMs,
  type StoreChange,
  type StoreChangeFeedState,
  type StoreChangeListener,
  type StoreChangeSubscription,
} from '@corekit/abstractions';

/** The feed of the memory and file providers: every writer is in this process, so delivery is a call. */
export const inProcessFeedPath = 'in-process';

/**
 * The change feed of one in-process provider: each committed write or delete is handed to the listeners of
 * its store synchronously, after the write (for the file provider: after the file is on disk). Always
 * connected; a listener that throws does not stop the others.
 */
export class InProcessChangeFeed {
  private readonly listeners = new Map<string, Set<StoreChangeListener>>();
  private readonly connectedAtMs = Date.now();

  constructor(private readonly fullReadIntervalMs: number = defaultFullReadIntervalMs) {}

  publish(change: StoreChange): void {
    for (const listener of this.listeners.get(change.store) ?? []) {
      try {
        listener.change(change);
      } catch {
        /* a listener's failure is its own */
      }
    }
  }

  watch(store: string, listener: StoreChangeListener): StoreChangeSubscription {
    let listeners = this.listeners.get(store);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(store, listeners);
    }
    listeners.add(listener);
    const state: StoreChangeFeedState = {
      path: inProcessFeedPath,
      connected: true,
      connectedAtMs: this.connectedAtMs,
      disconnectedAtMs: null,
      reconnects: 0,
      roundTripMs: 0,
      lastError: null,
    };
    listener.connected?.();
    return {
      state: () => state,
      fullReadIntervalMs: this.fullReadIntervalMs,
      close: () => {
        listeners.delete(listener);
      },
    };
  }
}
