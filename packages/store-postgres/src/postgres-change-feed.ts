import {
  defaultFullReadIntervalMs,
  type StoreChange,
  type StoreChangeFeedState,
  type StoreChangeListener,
  type StoreChangeSubscription,
} from '@corekit/abstractions';
import { connectedFeedState, StoreChangeListeners, unconnectedFeedState } from '@corekit/store-kit';
import pg from 'pg';

/** The path of the PostgreSQL feed (`StoreChangeFeedTraits.path`). */
export const postgresFeedPath = 'postgresql-listen-notify';

/** What the feed needs from its provider. */
export interface PostgresChangeFeedOptions {
  readonly connectionString: string;
  /** The NOTIFY channel of the provider's table (`corekit_stores_<hash>`). */
  readonly channel: string;
  /** `application_name` of the listening connection, so an operator (or a test) can find it. */
  readonly applicationName: string;
  readonly connectTimeoutMs: number;
  /** Told to subscribers as the safety-net interval. */
  readonly fullReadIntervalMs?: number;
  /** Removes the connection setting and its secrets from a driver message. */
  readonly redact: (message: string) => string;
}

/** Waits before connecting again: 100 ms, doubling, at most 5 s. */
const retryDelayMs = (attempt: number): number => Math.min(100 * 2 ** attempt, 5000);

/**
 * The one listening connection of a PostgreSQL store provider: a dedicated client (not from the pool, which
 * would hand it to a statement) that runs `LISTEN` on the table's channel, fed by the table's trigger (every
 * insert, update and delete of a row, in the writing transaction: a rolled-back write announces nothing).
 * Opened by the first `watch`, closed with the last subscription or the provider. A lost connection (a server
 * restart, `pg_terminate_backend`, a network cut) is reported to every subscriber, retried with a backoff, and
 * LISTENed again; subscribers are then told `connected` (and read the whole store: what was announced while
 * nobody listened is lost).
 */
export class PostgresChangeFeed {
  private readonly listeners = new StoreChangeListeners();
  private client: pg.Client | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private attempts = 0;
  private closed = true;
  private current: StoreChangeFeedState = unconnectedFeedState(postgresFeedPath);

  constructor(private readonly options: PostgresChangeFeedOptions) {}

  watch(store: string, listener: StoreChangeListener): StoreChangeSubscription {
    const subscription = this.listeners.subscribe(store, listener, {
      state: () => this.current,
      fullReadIntervalMs: this.options.fullReadIntervalMs ?? defaultFullReadIntervalMs,
      lastClosed: () => void this.close(),
    });
    if (this.closed) {
      this.closed = false;
      void this.connect();
    } else if (this.current.connected) {
      listener.connected?.();
    }
    return subscription;
  }

  /** Ends the listening connection (subscribers are kept: a later `watch` connects again). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    this.current = { ...this.current, connected: false };
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.retry = null;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      keepAlive: true,
    });
    this.client = client;
    client.on('notification', (message) => this.deliver(message.payload));
    client.on('error', (error: Error) => this.lost(client, error.message));
    client.on('end', () => this.lost(client, 'the connection ended'));
    try {
      await client.connect();
      const started = performance.now();
      await client.query(`LISTEN "${this.options.channel}"`);
      if (this.client !== client) return;
      this.attempts = 0;
      this.current = connectedFeedState(this.current, performance.now() - started);
      this.listeners.each((listener) => listener.connected?.());
    } catch (error) {
      this.lost(client, (error as Error).message);
    }
  }

  /** The client failed or ended: tell the subscribers once, and connect again unless closed. */
  private lost(client: pg.Client, reason: string): void {
    if (this.client !== client) return;
    this.client = null;
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    const wasConnected = this.current.connected;
    this.current = {
      ...this.current,
      connected: false,
      disconnectedAtMs: Date.now(),
      lastError: this.options.redact(reason).slice(0, 300),
    };
    if (wasConnected) this.listeners.each((listener) => listener.disconnected?.(this.current.lastError!));
    if (this.closed) return;
    this.retry = setTimeout(() => void this.connect(), retryDelayMs(this.attempts++));
    this.retry.unref?.();
  }

  private deliver(payload: string | undefined): void {
    const change = parseChange(payload);
    if (change) this.listeners.deliver(change);
  }
}

/** The trigger's payload: `[store, key, version | null, expiresAtMs | null, updatedAtMs | null]`. */
function parseChange(payload: string | undefined): StoreChange | undefined {
  try {
    const [store, key, version, expiresAtMs, writtenAtMs] = JSON.parse(payload ?? '') as [
      string,
      string,
      number | string | null,
      number | string | null,
      number | string | null,
    ];
    if (typeof store !== 'string' || typeof key !== 'string') return undefined;
    return {
      store,
      key,
      version: version === null ? null : Number(version),
      ...(expiresAtMs === null || version === null ? {} : { expiresAtMs: Number(expiresAtMs) }),
      ...(writtenAtMs === null ? {} : { writtenAtMs: Number(writtenAtMs) }),
    };
  } catch {
    return undefined;
  }
}
