import { createHash } from 'node:crypto';
import {
  databaseTargetOfUrl,
  layoutRefusal,
  redactText,
  secretsInConnectionString,
  storeChangeFeedVersion,
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
import pg from 'pg';
import { PostgresChangeFeed, postgresFeedPath } from './postgres-change-feed';
import { PostgresKeyedStore } from './postgres-keyed-store';
import { checkPostgresStoreLayout } from './postgres-store-layout';

/** Options of `PostgresStoreProvider` (`addPostgresStores` fills them from `Engine:Stores:PostgreSql`). */
export interface PostgresStoreProviderOptions {
  /** `postgres://user:password@host:5432/database`. Never shown: errors name the host and database only. */
  readonly connectionString: string;
  /** Schema of the table. Default `public`. */
  readonly schema?: string;
  /** The one table of every store. Default `corekit_stores`. */
  readonly tableName?: string;
  /** Create the table and its indexes when missing, before the first statement. Default true. */
  readonly createTable?: boolean;
  /** Most pool connections. Default 10. */
  readonly poolMax?: number;
  /** Connect timeout in milliseconds. Default 5000. */
  readonly connectTimeoutMs?: number;
  /** Server-side statement timeout in milliseconds. Default 10000. */
  readonly statementTimeoutMs?: number;
  /** Source of time for `updatedAtUtc` and expiry (sent with every statement). Default: the system clock. */
  readonly clock?: StoreClock;
  /** Bound of a store opened without `maxEntries`. Default 10,000. */
  readonly defaultMaxEntries?: number;
  /**
   * Offer the change feed (`KeyedStore.watch`: LISTEN on the table's channel, fed by its trigger). Default
   * true. The trigger is created with the table either way, so replicas with and without the feed can mix.
   */
  readonly changeFeed?: boolean;
}

const identifier = /^[a-z_][a-z0-9_]{0,49}$/;

/** What a store needs from its provider: a pool, the quoted table, the clock and error wrapping. */
export interface PostgresStoreContext {
  /** The qualified, quoted table name (`"public"."corekit_stores"`). */
  readonly table: string;
  /** The unquoted qualified name, the first key of the per-store advisory lock. */
  readonly tableId: string;
  readonly clock: StoreClock;
  /** The pool, with the table created; opened again after `close`. */
  pool(): Promise<pg.Pool>;
  /** Turns a driver failure into STORE_UNAVAILABLE naming the server, never the credentials. */
  unavailable(store: string, error: unknown): CoreError;
  /** Measures each statement (`db.client.operation.duration`, a CLIENT span) once the engine gave telemetry. */
  readonly telemetry: DatabaseClientTelemetry;
  /** `db.collection.name` of every statement: `schema.table`. */
  readonly collection: string;
  /** The provider's one listening connection; absent when the feed is switched off. */
  readonly feed: PostgresChangeFeed | undefined;
}

/**
 * Stores on PostgreSQL: every store in one table keyed by (store name, key), shared by every process that
 * points at the same table. Versions, compare-and-set, TTL and the per-store bound hold across processes:
 * each put is one conditional UPDATE, or, for a key that is new (or expired), a transaction holding a
 * per-store advisory lock while it counts the live records and inserts. Times come from the provider's clock
 * and are sent as parameters, never from the server's clock.
 */
export class PostgresStoreProvider extends SharedStoreProvider {
  readonly kind = 'postgresql';
  readonly database: DatabaseClientTarget;
  readonly changeFeed: StoreChangeFeedTraits | undefined;
  /** The NOTIFY channel of the table: `corekit_stores_` and 16 hex digits of the md5 of `schema.table`. */
  readonly channel: string;
  /** The table every store of this provider lives in (unquoted, without the schema). */
  readonly tableName: string;
  private readonly feed: PostgresChangeFeed | undefined;
  private readonly context: PostgresStoreContext;
  private current: { pool: pg.Pool; ready: Promise<void> | undefined } | undefined;

  constructor(private readonly options: PostgresStoreProviderOptions) {
    super(options.defaultMaxEntries);
    const schema = options.schema ?? 'public';
    const tableName = options.tableName ?? 'corekit_stores';
    for (const [what, value] of [
      ['schema', schema],
      ['tableName', tableName],
    ]) {
      if (!identifier.test(value)) {
        throw new RangeError(
          `The PostgreSQL store ${what} must be a lower-case SQL identifier (at most 50 characters), got ${JSON.stringify(value)}`,
        );
      }
    }
    const server = {
      product: 'PostgreSQL',
      address: describeServer(options.connectionString),
      connection: options.connectionString,
      connectionPlaceholder: '<connection string>',
    };
    this.database = databaseTargetOfUrl('postgresql', options.connectionString, { port: 5432 });
    this.tableName = tableName;
    const tableId = `${schema}.${tableName}`;
    this.channel = `corekit_stores_${createHash('md5').update(tableId).digest('hex').slice(0, 16)}`;
    const secrets = secretsInConnectionString(options.connectionString);
    this.feed =
      options.changeFeed === false
        ? undefined
        : new PostgresChangeFeed({
            connectionString: options.connectionString,
            channel: this.channel,
            applicationName: `corekit-store-feed ${tableId}`.slice(0, 63),
            connectTimeoutMs: options.connectTimeoutMs ?? 5000,
            redact: (message) =>
              redactText(message.split(options.connectionString).join('<connection string>'), secrets),
          });
    this.changeFeed = this.feed ? { version: storeChangeFeedVersion, path: postgresFeedPath } : undefined;
    this.context = {
      feed: this.feed,
      telemetry: this.databaseTelemetry(),
      collection: `${schema}.${tableName}`,
      table: `"${schema}"."${tableName}"`,
      tableId: `${schema}.${tableName}`,
      clock: options.clock ?? systemStoreClock,
      pool: () => this.ready(),
      unavailable: (store, error) => layoutRefusal(error) ?? storeUnavailableError(server, store, error),
    };
  }

  protected openStore<T>(name: string, maxEntries: number): KeyedStore<T> {
    return new PostgresKeyedStore<T>(name, maxEntries, this.context);
  }

  /** Creates the table and indexes when missing (idempotent; safe when several processes start at once). */
  async ensureTable(): Promise<void> {
    await this.ready();
  }

  /** Ends the pool and the listening connection; a store used afterwards opens a new one. */
  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    await Promise.all([current?.pool.end().catch(() => undefined), this.feed?.close()]);
  }

  /** Drops the table (tests and teardown only). */
  async dropTable(): Promise<void> {
    const pool = this.poolNow();
    await pool.query(`DROP TABLE IF EXISTS ${this.context.table}`);
  }

  private poolNow(): pg.Pool {
    if (!this.current) {
      const pool = new pg.Pool({
        connectionString: this.options.connectionString,
        max: this.options.poolMax ?? 10,
        connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5000,
        statement_timeout: this.options.statementTimeoutMs ?? 10_000,
      });
      // An idle client's error (a server restart) must not crash the process; the next query reconnects.
      pool.on('error', () => undefined);
      this.current = { pool, ready: undefined };
    }
    return this.current.pool;
  }

  /** The pool once the table exists; a failed creation is tried again by the next call. */
  private async ready(): Promise<pg.Pool> {
    const pool = this.poolNow();
    const current = this.current!;
    if (this.options.createTable !== false) {
      current.ready ??= this.createTable(pool).catch((error: unknown) => {
        current.ready = undefined;
        throw error;
      });
      await current.ready;
    }
    return pool;
  }

  private async createTable(pool: pg.Pool): Promise<void> {
    const { table, tableId } = this.context;
    const base = tableId.split('.')[1];
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // Concurrent CREATE TABLE IF NOT EXISTS can still collide in the catalog: serialize the creators.
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('corekit-store-schema'), hashtext($1))`, [
        tableId,
      ]);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${table} (
          store_name text NOT NULL,
          key text NOT NULL,
          sort_key bytea NOT NULL,
          value json NOT NULL,
          version bigint NOT NULL,
          updated_at_ms bigint NOT NULL,
          expires_at_ms bigint,
          PRIMARY KEY (store_name, key)
        )`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${base}_order" ON ${table} (store_name, sort_key)`);
      await client.query(
        `CREATE INDEX IF NOT EXISTS "${base}_expiry" ON ${table} (store_name, expires_at_ms) WHERE expires_at_ms IS NOT NULL`,
      );
      await checkPostgresStoreLayout(client, table, tableId);
      await createChangeTrigger(client, table, tableId, base, this.channel);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

/**
 * The change feed's trigger: after every insert, update and delete of a row, `pg_notify` on the table's channel
 * with `[store, key, version, expiresAtMs, updatedAtMs]` (a deletion: `[store, key, null, null, null]`), sent
 * when the writing transaction commits, never for one rolled back. No value: the payload is bounded by the
 * longest store name and key (100 + 512 characters), far under NOTIFY's 8000 bytes. Created with the table and
 * on tables of earlier releases (the function is replaced, the trigger created once).
 */
async function createChangeTrigger(
  client: pg.PoolClient,
  table: string,
  tableId: string,
  base: string,
  channel: string,
): Promise<void> {
  const schema = tableId.split('.')[0];
  const notify = `"${schema}"."${base}_notify"`;
  await client.query(`
    CREATE OR REPLACE FUNCTION ${notify}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify(TG_ARGV[0], json_build_array(OLD.store_name, OLD.key, NULL, NULL, NULL)::text);
      ELSE
        PERFORM pg_notify(TG_ARGV[0],
          json_build_array(NEW.store_name, NEW.key, NEW.version, NEW.expires_at_ms, NEW.updated_at_ms)::text);
      END IF;
      RETURN NULL;
    END $$`);
  await client.query(`
    DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '${base}_changes' AND tgrelid = '${table.replace(/'/g, "''")}'::regclass) THEN
        CREATE TRIGGER "${base}_changes" AFTER INSERT OR UPDATE OR DELETE ON ${table}
          FOR EACH ROW EXECUTE FUNCTION ${notify}('${channel}');
      END IF;
    END $$`);
}

/** `host:port/database` of a connection string, without user or password. */
export function describeServer(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'the configured server';
  }
}
