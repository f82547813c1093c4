import {
  defaultFullReadIntervalMs,
  type StoreChange,
  type StoreChangeFeedState,
  type StoreChangeListener,
  type StoreChangeSubscription,
} from '@corekit/abstractions';
import { StoreChangeListeners, unconnectedFeedState } from '@corekit/store-kit';

/** The feed of the memory and file providers: every writer is in this process, so delivery is a call. */
export const inProcessFeedPath = 'in-process';

/**
 * The change feed of one in-process provider: each committed write or delete is handed to the listeners of
 * its store synchronously, after the write (for the file provider: after the file is on disk). Always
 * connected; a listener that throws does not stop the others.
 */
export class InProcessChangeFeed {
  private readonly listeners = new StoreChangeListeners();
  private readonly state: StoreChangeFeedState = {
    ...unconnectedFeedState(inProcessFeedPath),
    connected: true,
    connectedAtMs: Date.now(),
  };

  constructor(private readonly fullReadIntervalMs: number = defaultFullReadIntervalMs) {}

  publish(change: StoreChange): void {
    this.listeners.deliver(change);
  }

  watch(store: string, listener: StoreChangeListener): StoreChangeSubscription {
    const state = this.state;
    const subscription = this.listeners.subscribe(store, listener, {
      state: () => state,
      fullReadIntervalMs: this.fullReadIntervalMs,
    });
    listener.connected?.();
    return subscription;
  }
}
