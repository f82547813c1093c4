import {
  admitPut,
  assertDeleteArguments,
  assertListOptions,
  assertValidKey,
  recordFromJson,
  storeExpiryOf,
  storeFullError,
  storeTimeOf,
  type CoreError,
  type KeyedStore,
  type ListOptions,
  type PutOptions,
  type PutResult,
  type StoreChangeListener,
  type StoreChangeSubscription,
  type StoredRecord,
  sqlOperationOf,
} from '@corekit/abstractions';
import type pg from 'pg';
import type { PostgresStoreContext } from './postgres-store-provider';
import { sortKeyOf, upperBoundOf } from './sort-key';

interface Row {
  key?: string;
  value: string;
  version: string;
  updated_at_ms: string;
  expires_at_ms?: string | null;
}

/** The SQL condition "the row is live at the time in parameter `now`". */
const liveAt = (now: string): string => `(expires_at_ms IS NULL OR expires_at_ms > ${now})`;

/** One named store on the shared table; see `PostgresStoreProvider` for how writes stay atomic. */
export class PostgresKeyedStore<T> implements KeyedStore<T> {
  constructor(
    readonly name: string,
    private readonly maxEntries: number,
    private readonly context: PostgresStoreContext,
  ) {}

  async get(key: string): Promise<StoredRecord<T> | undefined> {
    assertValidKey(this.name, key);
    const now = this.now();
    const { rows } = await this.query<Row>(
      `SELECT value::text AS value, version, updated_at_ms FROM ${this.context.table}
       WHERE store_name = $1 AND key = $2 AND ${liveAt('$3')}`,
      [this.name, key, now],
    );
    return rows[0] ? toRecord<T>(key, rows[0]) : undefined;
  }

  async list(options?: ListOptions): Promise<readonly StoredRecord<T>[]> {
    assertListOptions(options);
    if (options?.limit === 0) return [];
    const lower = sortKeyOf(options?.prefix ?? '');
    const { rows } = await this.query<Row>(
      `SELECT key, value::text AS value, version, updated_at_ms FROM ${this.context.table}
       WHERE store_name = $1 AND ${liveAt('$2')}
         AND sort_key >= $3 AND ($4::bytea IS NULL OR sort_key < $4)
       ORDER BY sort_key LIMIT $5`,
      [this.name, this.now(), lower, upperBoundOf(lower), options?.limit ?? null],
    );
    return rows.map((row) => toRecord<T>(row.key!, row));
  }

  async count(): Promise<number> {
    const { rows } = await this.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${this.context.table} WHERE store_name = $1 AND ${liveAt('$2')}`,
      [this.name, this.now()],
    );
    return rows[0].n;
  }

  async put(key: string, value: T, options?: PutOptions): Promise<PutResult<T>> {
    const text = admitPut(this.name, key, value, options);
    const now = this.now();
    const expiresAt = storeExpiryOf(now, options) ?? null;
    const expected = options?.expectedVersion;
    const { table } = this.context;
    if (expected !== 0) {
      // The common case in one statement: a live key, unconditionally or at the expected version.
      const { rows } = await this.query<{ version: string }>(
        `UPDATE ${table} SET value = $3::json, version = version + 1, updated_at_ms = $4, expires_at_ms = $5
         WHERE store_name = $1 AND key = $2 AND ${liveAt('$4')}
           AND ($6::bigint IS NULL OR version = $6)
         RETURNING version`,
        [this.name, key, text, now, expiresAt, expected ?? null],
      );
      if (rows[0]) return written<T>(key, text, Number(rows[0].version), now);
    }
    return this.transaction<PutResult<T>>(async (query) => {
      await query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [
        this.context.tableId,
        this.name,
      ]);
      const { rows } = await query<Row>(
        `SELECT value::text AS value, version, updated_at_ms, expires_at_ms FROM ${table}
         WHERE store_name = $1 AND key = $2 FOR UPDATE`,
        [this.name, key],
      );
      const row = rows[0];
      const current =
        row && (row.expires_at_ms === null || Number(row.expires_at_ms) > now) ? row : undefined;
      if (expected !== undefined && expected !== (current ? Number(current.version) : 0)) {
        return { commit: false, result: refused<T>(key, current) };
      }
      if (current) {
        const updated = await query<{ version: string }>(
          `UPDATE ${table} SET value = $3::json, version = version + 1, updated_at_ms = $4, expires_at_ms = $5
           WHERE store_name = $1 AND key = $2 RETURNING version`,
          [this.name, key, text, now, expiresAt],
        );
        return { commit: true, result: written<T>(key, text, Number(updated.rows[0].version), now) };
      }
      // A new key: drop this store's expired rows, then count what is live under the lock.
      const counted = await query<{ n: number }>(
        `WITH swept AS (DELETE FROM ${table} WHERE store_name = $1 AND expires_at_ms <= $2 RETURNING 1)
         SELECT count(*)::int AS n FROM ${table} WHERE store_name = $1 AND ${liveAt('$2')}`,
        [this.name, now],
      );
      const count = counted.rows[0].n;
      if (count >= this.maxEntries) {
        return { commit: true, error: storeFullError(this.name, count, this.maxEntries) };
      }
      await query(
        `INSERT INTO ${table} (store_name, key, sort_key, value, version, updated_at_ms, expires_at_ms)
         VALUES ($1, $2, $3, $4::json, 1, $5, $6)
         ON CONFLICT (store_name, key) DO UPDATE SET value = EXCLUDED.value, version = 1,
           updated_at_ms = EXCLUDED.updated_at_ms, expires_at_ms = EXCLUDED.expires_at_ms`,
        [this.name, key, sortKeyOf(key), text, now, expiresAt],
      );
      return { commit: true, result: written<T>(key, text, 1, now) };
    });
  }

  async delete(key: string, options?: { readonly expectedVersion?: number }): Promise<boolean> {
    assertDeleteArguments(this.name, key, options);
    // An expired row is removed whatever the expected version, and reported as not deleted (it was absent).
    const { rows } = await this.query<{ live: boolean }>(
      `DELETE FROM ${this.context.table}
       WHERE store_name = $1 AND key = $2 AND (expires_at_ms <= $3 OR $4::bigint IS NULL OR version = $4)
       RETURNING ${liveAt('$3')} AS live`,
      [this.name, key, this.now(), options?.expectedVersion ?? null],
    );
    return rows[0]?.live === true;
  }

  /** Changes of this store by every process on the table (LISTEN/NOTIFY); undefined when the feed is off. */
  watch(listener: StoreChangeListener): StoreChangeSubscription | undefined {
    if (!this.context.feed) return undefined;
    // The trigger is created with the table: make sure it exists before anyone relies on the feed.
    this.context.pool().catch(() => undefined);
    return this.context.feed.watch(this.name, listener);
  }

  private now(): number {
    return storeTimeOf(this.context.clock);
  }

  private async query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    try {
      // Waiting for the pool (and the table, the first time) is part of the operation: a server that cannot
      // be reached fails it, with its `error.type`.
      return await this.measured(() => this.context.pool(), text, values);
    } catch (error) {
      throw this.context.unavailable(this.name, error);
    }
  }

  /** One statement as one database operation (named by its first keyword) on the store table. */
  private measured<R extends pg.QueryResultRow>(
    client: () => Promise<pg.Pool | pg.PoolClient>,
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    return this.context.telemetry.operation(
      { name: sqlOperationOf(text), collection: this.context.collection },
      async () => (await client()).query<R>(text, values),
    );
  }

  /** Runs `work` in a transaction on one pooled client; `commit: false` rolls back. */
  private async transaction<R>(
    work: (
      query: <Q extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<pg.QueryResult<Q>>,
    ) => Promise<{ commit: boolean; result: R } | { commit: boolean; error: CoreError }>,
  ): Promise<R> {
    let client: pg.PoolClient;
    try {
      client = await (await this.context.pool()).connect();
    } catch (error) {
      throw this.context.unavailable(this.name, error);
    }
    const query = <Q extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
      this.measured<Q>(async () => client, text, values);
    let outcome: { commit: boolean; result: R } | { commit: boolean; error: CoreError };
    try {
      await query('BEGIN');
      outcome = await work(query);
      await query(outcome.commit ? 'COMMIT' : 'ROLLBACK');
    } catch (error) {
      await query('ROLLBACK').catch(() => undefined);
      client.release();
      throw this.context.unavailable(this.name, error);
    }
    client.release();
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  }
}

function toRecord<T>(key: string, row: Row): StoredRecord<T> {
  return recordFromJson<T>(key, row.value, Number(row.version), Number(row.updated_at_ms));
}

function written<T>(key: string, text: string, version: number, now: number): PutResult<T> {
  return { written: true, record: recordFromJson<T>(key, text, version, now) };
}

function refused<T>(key: string, current: Row | undefined): PutResult<T> {
  return { written: false, current: current ? toRecord<T>(key, current) : null };
}
