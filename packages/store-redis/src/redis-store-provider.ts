import {
  databaseTargetOfUrl,
  redactText,
  secretsInConnectionString,
  storeChangeFeedVersion,
  layoutRefusal,
  SharedStoreProvider,
  storeUnavailableError,
  systemStoreClock,
  type CoreError,
  type DatabaseClientTarget,
  type DatabaseClientTelemetry,
  type KeyedStore,
  type StoreChangeFeedTraits,
  type StoreClock,
} from '@corekit/abstractions';
import { Redis } from 'ioredis';
import { checkRedisStoreLayout } from './redis-store-layout';
import { RedisChangeFeed, redisFeedPath } from './redis-change-feed';
import { RedisKeyedStore } from './redis-keyed-store';
import type { StoreScript } from './redis-store-scripts';

/** Options of `RedisStoreProvider` (`addRedisStores` fills them from `Engine:Stores:Redis`). */
export interface RedisStoreProviderOptions {
  /** `redis://[user:password@]host:6379[/database]`. Never shown: errors name host and port only. */
  readonly url: string;
  /** Prefix of every Redis key. Default `corekit:store:`. */
  readonly keyPrefix?: string;
  /** Connect timeout in milliseconds. Default 5000. */
  readonly connectTimeoutMs?: number;
  /** Timeout of one command in milliseconds. Default 10000. */
  readonly commandTimeoutMs?: number;
  /** Source of time for `updatedAtUtc` and expiry (sent with every script). Default: the system clock. */
  readonly clock?: StoreClock;
  /** Bound of a store opened without `maxEntries`. Default 10,000. */
  readonly defaultMaxEntries?: number;
  /**
   * Offer the change feed (`KeyedStore.watch`: SUBSCRIBE on `<keyPrefix>changes`). Default true. Writes publish
   * their changes either way, so replicas with and without the feed can mix.
   */
  readonly changeFeed?: boolean;
}

/** What a store needs from its provider. */
export interface RedisStoreContext {
  readonly keyPrefix: string;
  readonly clock: StoreClock;
  /** GET-style commands on the shared client. */
  client(): Redis;
  /** Runs a script by EVALSHA, falling back to EVAL when the server does not hold it (NOSCRIPT). */
  run(script: StoreScript, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown>;
  /** Turns a client failure into STORE_UNAVAILABLE naming the server, never the credentials. */
  unavailable(store: string, error: unknown): CoreError;
  /** Measures each command (`db.client.operation.duration`, a CLIENT span) once the engine gave telemetry. */
  readonly telemetry: DatabaseClientTelemetry;
  /** The pub/sub channel every write and delete script publishes its change on: `<keyPrefix>changes`. */
  readonly channel: string;
  /** The provider's one subscribing connection; absent when the feed is switched off. */
  readonly feed: RedisChangeFeed | undefined;
}

/**
 * Stores on Redis, shared by every process using the same server and key prefix. Each write is one Lua script
 * (atomic on the server): versions, compare-and-set, TTL and the per-store bound hold across processes. Expiry
 * is stored in the record and judged against the provider's clock, sent with every call; expired records are
 * removed lazily (by writes and deletes). Durability is Redis's own persistence configuration (AOF/RDB).
 */
export class RedisStoreProvider extends SharedStoreProvider {
  readonly kind = 'redis';
  readonly database: DatabaseClientTarget;
  readonly changeFeed: StoreChangeFeedTraits | undefined;
  /** `CLIENT SETNAME` of the subscribing connection: `corekit-store-feed:<keyPrefix>` (spaces as `_`). */
  readonly feedConnectionName: string;
  /** The prefix of every Redis key of this provider. */
  readonly keyPrefix: string;
  private readonly feed: RedisChangeFeed | undefined;
  private readonly context: RedisStoreContext;
  private current: Redis | undefined;
  /** The last connection error the client reported, named in the error of a call that failed while down. */
  private connectionError: string | undefined;

  constructor(private readonly options: RedisStoreProviderOptions) {
    super(options.defaultMaxEntries);
    const server = {
      product: 'Redis',
      address: describeServer(options.url),
      connection: options.url,
      connectionPlaceholder: '<url>',
    };
    this.database = databaseTargetOfUrl('redis', options.url, { port: 6379, namespace: '0' });
    const keyPrefix = options.keyPrefix ?? 'corekit:store:';
    this.keyPrefix = keyPrefix;
    this.feedConnectionName = `corekit-store-feed:${keyPrefix}`.replace(/[^\x21-\x7e]/g, '_');
    const secrets = secretsInConnectionString(options.url);
    this.feed =
      options.changeFeed === false
        ? undefined
        : new RedisChangeFeed({
            url: options.url,
            channel: `${keyPrefix}changes`,
            connectionName: this.feedConnectionName,
            connectTimeoutMs: options.connectTimeoutMs ?? 5000,
            redact: (message) => redactText(message.split(options.url).join('<url>'), secrets),
          });
    this.changeFeed = this.feed ? { version: storeChangeFeedVersion, path: redisFeedPath } : undefined;
    this.context = {
      channel: `${keyPrefix}changes`,
      feed: this.feed,
      telemetry: this.databaseTelemetry(),
      keyPrefix: options.keyPrefix ?? 'corekit:store:',
      clock: options.clock ?? systemStoreClock,
      client: () => this.client(),
      run: async (script, keys, args) => {
        const client = this.client();
        await this.layoutOf(client);
        try {
          return await client.evalsha(script.sha, keys.length, ...keys, ...args);
        } catch (error) {
          if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
          return client.eval(script.source, keys.length, ...keys, ...args);
        }
      },
      unavailable: (store, error) =>
        layoutRefusal(error) ??
        storeUnavailableError(
          server,
          store,
          error,
          this.current?.status !== 'ready' && this.connectionError
            ? `not reachable (${this.connectionError})`
            : undefined,
        ),
    };
  }

  protected openStore<T>(name: string, maxEntries: number): KeyedStore<T> {
    return new RedisKeyedStore<T>(name, maxEntries, this.context);
  }

  /** Closes the client and the subscribing connection; a store used afterwards connects again. */
  async close(): Promise<void> {
    this.feed?.close();
    const client = this.current;
    this.current = undefined;
    if (!client) return;
    if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
    else client.disconnect();
  }

  /** Deletes every key of the given stores under this provider's prefix (tests and teardown only). */
  async deleteStores(names: readonly string[]): Promise<void> {
    const keys = names.flatMap((name) =>
      ['r', 'k', 'x'].map((part) => `${this.context.keyPrefix}{${name}}:${part}`),
    );
    if (keys.length > 0) await this.client().del(...keys);
  }

  /** The layout check of the current client (`redis-store-layout.ts`), made before its first script. */
  private layoutChecked: { readonly client: Redis; readonly done: Promise<void> } | undefined;

  private layoutOf(client: Redis): Promise<void> {
    if (this.layoutChecked?.client !== client) {
      const done = checkRedisStoreLayout(client, this.context.keyPrefix);
      // A check that failed (the server down) is made again by the next script.
      done.catch(() => {
        if (this.layoutChecked?.done === done) this.layoutChecked = undefined;
      });
      this.layoutChecked = { client, done };
    }
    return this.layoutChecked.done;
  }

  private client(): Redis {
    if (!this.current) {
      const client = new Redis(this.options.url, {
        connectTimeout: this.options.connectTimeoutMs ?? 5000,
        commandTimeout: this.options.commandTimeoutMs ?? 10_000,
        // A call fails after one reconnect attempt instead of waiting through many: the caller sees the outage.
        maxRetriesPerRequest: 1,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
        lazyConnect: false,
      });
      // Connection errors surface through the failed commands; without a listener ioredis would print them.
      client.on('error', (error: Error) => {
        this.connectionError = error.message;
      });
      client.on('ready', () => {
        this.connectionError = undefined;
      });
      this.current = client;
    }
    return this.current;
  }
}

/** `host:port` of a Redis URL, without user or password. */
export function describeServer(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'the configured server';
  }
}
