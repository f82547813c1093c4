/**
 * The store change feed (version 1): an optional extension of the store contract through which a provider
 * tells a subscriber which keys of a store changed, so a read copy (`StoreMirror`) reads those keys only
 * instead of the whole store on an interval. A change names the store, the key and the version written (or
 * the deletion); it never carries the record's value, so a notification stays small and bounded whatever the
 * records hold, and the reader always takes the value from the store itself.
 *
 * Delivery is at most once: a notification can be lost (a dropped connection, a server restart). A provider
 * therefore reports the state of its feed, and calls `connected` again after every reconnect; a subscriber
 * reads the whole store then (the catch-up), and again on a long interval (the safety net), so a missed
 * notification is a bounded delay, never a silent divergence.
 *
 * TTL expiry: no server tells when a record's time runs out, so a change of a record written with a TTL
 * carries `expiresAtMs`; a subscriber reads that key again once the time has passed (and drops it when the
 * store no longer answers it). Expired records a provider sweeps are announced as deletions.
 */

/** The version of the change-feed contract this package describes. */
export const storeChangeFeedVersion = 1;

/** One change of one key. */
export interface StoreChange {
  /** The store's name (`openStore`). */
  readonly store: string;
  readonly key: string;
  /** The version written; null when the key was deleted (or swept after it expired). */
  readonly version: number | null;
  /** Epoch milliseconds (the writer's store clock) from which the written record is gone; absent without TTL. */
  readonly expiresAtMs?: number;
  /** Epoch milliseconds (the writer's store clock) of the write, when the provider knows it. */
  readonly writtenAtMs?: number;
}

/** What the subscriber is told. */
export interface StoreChangeListener {
  /** One change, in the order the provider received them (per key, the order of the writes). */
  change(change: StoreChange): void;
  /**
   * The feed is (again) delivering: called once when the subscription is first connected and after every
   * reconnect. Whatever changed while it was down was not announced: read the whole store now.
   */
  connected?(): void;
  /** The feed lost its connection: changes are not announced until `connected` is called again. */
  disconnected?(reason: string): void;
}

/** The state of a subscription's feed, as surfaces report it. */
export interface StoreChangeFeedState {
  /** `in-process` (memory, file), `postgresql-listen-notify`, `redis-pubsub`... */
  readonly path: string;
  /** True while changes are delivered. */
  readonly connected: boolean;
  /** Epoch milliseconds of the last time the feed (re)connected; null before the first connection. */
  readonly connectedAtMs: number | null;
  /** Epoch milliseconds of the last loss of the connection; null when it never dropped. */
  readonly disconnectedAtMs: number | null;
  /** How many times the feed connected again after losing its connection. */
  readonly reconnects: number;
  /** Milliseconds the last subscribe command (LISTEN, SUBSCRIBE) took: one round trip to the server; 0 in-process. */
  readonly roundTripMs: number;
  /** Why the connection was last lost (the driver's message, without credentials); null when it never dropped. */
  readonly lastError: string | null;
}

/** A subscription to one store's changes. */
export interface StoreChangeSubscription {
  /** The feed's state now. */
  state(): StoreChangeFeedState;
  /**
   * Milliseconds between two full reads of the store a subscriber still makes while the feed is connected
   * (the safety net; `Engine:Stores:ChangeFeed:FullReadIntervalSeconds`, default 5 minutes).
   */
  readonly fullReadIntervalMs: number;
  /** Stops the delivery; the provider releases its listening connection with its last subscription. */
  close(): void;
}

/** The safety-net interval of a feed when nothing configures one: five minutes. */
export const defaultFullReadIntervalMs = 300_000;

/** A store that announces its changes (`KeyedStore.watch`, when the provider has a feed). */
export interface WatchableStore {
  /**
   * Subscribes to the changes of this store (writes of every process on a shared provider, including this
   * one). Absent, or answering undefined, when the provider has no feed or `Engine:Stores:ChangeFeed:Enabled`
   * is false (a wrapping store cannot know before its provider is bound).
   */
  watch?(listener: StoreChangeListener): StoreChangeSubscription | undefined;
}
