import {
  defaultFullReadIntervalMs,
  type StoreChange,
  type StoreChangeFeedState,
  type StoreChangeListener,
  type StoreChangeSubscription,
} from '@corekit/abstractions';
import { connectedFeedState, StoreChangeListeners, unconnectedFeedState } from '@corekit/store-kit';
import { Redis } from 'ioredis';

/** The path of the Redis feed (`StoreChangeFeedTraits.path`). */
export const redisFeedPath = 'redis-pubsub';

/** What the feed needs from its provider. */
export interface RedisChangeFeedOptions {
  readonly url: string;
  /** The channel every store of the provider's key prefix publishes on (`<keyPrefix>changes`). */
  readonly channel: string;
  /** `CLIENT SETNAME` of the subscribing connection, so an operator (or a test) can find it. */
  readonly connectionName: string;
  readonly connectTimeoutMs: number;
  /** Told to subscribers as the safety-net interval. */
  readonly fullReadIntervalMs?: number;
  /** Removes the URL's credentials from a client message. */
  readonly redact: (message: string) => string;
}

/**
 * The one subscribing connection of a Redis store provider (a connection in pub/sub mode can run nothing
 * else): SUBSCRIBE on the prefix's channel, on which every write and delete script PUBLISHes its change in the
 * same atomic script run. Opened by the first `watch`, closed with the last subscription or the provider. A lost
 * connection (a server restart, `CLIENT KILL`, a network cut) is reported to every subscriber; the client
 * reconnects on its own, the feed SUBSCRIBEs again and then tells the subscribers `connected` (they read the
 * whole store: pub/sub keeps nothing for a subscriber that was away).
 */
export class RedisChangeFeed {
  private readonly listeners = new StoreChangeListeners();
  private client: Redis | null = null;
  private current: StoreChangeFeedState = unconnectedFeedState(redisFeedPath);

  constructor(private readonly options: RedisChangeFeedOptions) {}

  watch(store: string, listener: StoreChangeListener): StoreChangeSubscription {
    const subscription = this.listeners.subscribe(store, listener, {
      state: () => this.current,
      fullReadIntervalMs: this.options.fullReadIntervalMs ?? defaultFullReadIntervalMs,
      lastClosed: () => this.close(),
    });
    if (!this.client) this.open();
    else if (this.current.connected) listener.connected?.();
    return subscription;
  }

  /** Ends the subscribing connection (a later `watch` opens a new one). */
  close(): void {
    const client = this.client;
    this.client = null;
    this.current = { ...this.current, connected: false };
    client?.disconnect();
  }

  private open(): void {
    const client = new Redis(this.options.url, {
      connectTimeout: this.options.connectTimeoutMs,
      connectionName: this.options.connectionName,
      // The feed subscribes again itself, so that `connected` is told only once the server confirmed it.
      autoResubscribe: false,
      maxRetriesPerRequest: null,
      retryStrategy: (attempt) => Math.min(attempt * 100, 5000),
    });
    this.client = client;
    client.on('ready', () => void this.subscribe(client));
    client.on('message', (_channel: string, message: string) => this.deliver(message));
    client.on('error', (error: Error) => {
      if (this.client === client) this.current = { ...this.current, lastError: this.redact(error.message) };
    });
    client.on('close', () => this.lost(client));
  }

  private async subscribe(client: Redis): Promise<void> {
    try {
      const started = performance.now();
      await client.subscribe(this.options.channel);
      if (this.client !== client) return;
      this.current = connectedFeedState(this.current, performance.now() - started);
      this.listeners.each((listener) => listener.connected?.());
    } catch (error) {
      // The connection dropped during SUBSCRIBE: the next `ready` tries again.
      if (this.client === client) {
        this.current = { ...this.current, lastError: this.redact((error as Error).message) };
      }
    }
  }

  private lost(client: Redis): void {
    if (this.client !== client || !this.current.connected) return;
    this.current = {
      ...this.current,
      connected: false,
      disconnectedAtMs: Date.now(),
      lastError: this.current.lastError ?? 'the connection closed',
    };
    const reason = this.current.lastError!;
    this.listeners.each((listener) => listener.disconnected?.(reason));
  }

  private redact(message: string): string {
    return this.options.redact(message).slice(0, 300);
  }

  private deliver(message: string): void {
    const change = parseChange(message);
    if (change) this.listeners.deliver(change);
  }
}

/** The scripts' message: `[store, key, version, expiresAtMs, updatedAtMs]`, or `[store, key]` for a deletion. */
function parseChange(message: string): StoreChange | undefined {
  try {
    const [store, key, version, expiresAtMs, writtenAtMs] = JSON.parse(message) as [
      string,
      string,
      number | undefined,
      number | string | undefined,
      number | string | undefined,
    ];
    if (typeof store !== 'string' || typeof key !== 'string') return undefined;
    if (typeof version !== 'number') return { store, key, version: null };
    return {
      store,
      key,
      version,
      ...(expiresAtMs === undefined || expiresAtMs === '' ? {} : { expiresAtMs: Number(expiresAtMs) }),
      ...(writtenAtMs === undefined ? {} : { writtenAtMs: Number(writtenAtMs) }),
    };
  } catch {
    return undefined;
  }
}
