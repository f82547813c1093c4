import {
  DatabaseClientTelemetry,
  sqlOperationOf,
  type DatabaseClientTarget,
  type PackTelemetry,
} from '@corekit/abstractions';
import type { ClaimedOutboxMessage, EventMessage, OutboxStore } from '@corekit/eventing';
import type { QueryResult } from 'pg';

/** Anything that runs a query: a pool, a pooled client, a client (the caller's transaction). */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<QueryResult>;
}

/**
 * The transactional outbox on PostgreSQL. `stageInTransaction` writes the message with the caller's own
 * client, so it commits or rolls back with the caller's business rows. Dispatchers claim due rows with
 * `FOR UPDATE SKIP LOCKED` and stamp a lease: concurrent processes never claim one row at once, and a row
 * whose claimer died is claimable again once its lease expires. Settling a row requires the live claim.
 */
export class PostgresOutboxStore implements OutboxStore {
  readonly provider = 'postgresql';
  private readonly table: string;
  private schema: Promise<void> | null;
  /** Where claims and settlements run: `dispatchPool` when given, else `pool`. */
  private readonly dispatch: Queryable;
  private readonly deleteDispatched: boolean;
  /** `postgresql`, and the database, host and port when the registration knows the connection string. */
  readonly database: DatabaseClientTarget;
  private readonly telemetry: DatabaseClientTelemetry;
  /** `db.collection.name` of every statement: `schema.table`. */
  private readonly collection: string;

  /**
   * With `createTable` (default true) the table is created before the first statement that needs it.
   * `dispatchPool` runs the dispatcher's claims and settlements (say, sessions with asynchronous commit);
   * staging always uses `pool` or the caller's client. With `deleteDispatched` a dispatched row is deleted
   * at once instead of being marked dispatched (staging its publication id again then stages it anew).
   */
  constructor(
    private readonly pool: Queryable,
    readonly outboxId: string,
    options: {
      schema?: string;
      tableName?: string;
      createTable?: boolean;
      dispatchPool?: Queryable;
      deleteDispatched?: boolean;
      /** What the telemetry names as the database. Default `{ system: 'postgresql' }`. */
      database?: DatabaseClientTarget;
    } = {},
  ) {
    const schema = options.schema ?? 'public';
    const tableName = options.tableName ?? 'corekit_outbox';
    this.table = `"${schema}"."${tableName}"`;
    this.collection = `${schema}.${tableName}`;
    this.database = options.database ?? { system: 'postgresql' };
    this.telemetry = new DatabaseClientTelemetry(this.database);
    this.schema = options.createTable === false ? Promise.resolve() : null;
    this.dispatch = options.dispatchPool ?? pool;
    this.deleteDispatched = options.deleteDispatched ?? false;
  }

  /** Measures every statement from now on (`useOutboxStore` calls it with the engine's meter and tracer). */
  useTelemetry(telemetry: PackTelemetry): void {
    this.telemetry.use(telemetry);
  }

  /** One statement as one database operation, named by its first keyword, on the outbox table. */
  private query(on: Queryable, text: string, values?: unknown[]): Promise<QueryResult> {
    return this.telemetry.operation({ name: sqlOperationOf(text), collection: this.collection }, () =>
      on.query(text, values),
    );
  }

  private ready(): Promise<void> {
    this.schema ??= this.ensureSchema().catch((error: unknown) => {
      this.schema = null;
      throw error;
    });
    return this.schema;
  }

  /** Creates the table and its due-row index when missing (idempotent). */
  async ensureSchema(): Promise<void> {
    await this.query(
      this.pool,
      `
      CREATE TABLE IF NOT EXISTS ${this.table} (
        outbox_id text NOT NULL,
        id text NOT NULL,
        channel_id text NOT NULL,
        event_type text NOT NULL,
        message jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        staged_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        available_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        claim_owner text,
        claim_expires_at timestamptz,
        settled_at timestamptz,
        last_error text,
        PRIMARY KEY (outbox_id, id)
      )`,
    );
    const index = `"${this.table.split('.')[1].replaceAll('"', '')}_due"`;
    await this.query(
      this.pool,
      `CREATE INDEX IF NOT EXISTS ${index} ON ${this.table} (outbox_id, available_at) WHERE status = 'pending'`,
    );
  }

  /**
   * Stages a message with the caller's client, inside the caller's transaction: the message exists exactly
   * when the transaction commits. True when new; false when this publication id was already staged.
   */
  async stageInTransaction(client: Queryable, message: EventMessage): Promise<boolean> {
    await this.ready();
    const result = await this.query(
      client,
      `INSERT INTO ${this.table} (outbox_id, id, channel_id, event_type, message)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (outbox_id, id) DO NOTHING`,
      [this.outboxId, message.publicationId, message.channelId, message.eventType, JSON.stringify(message)],
    );
    return result.rowCount === 1;
  }

  stage(message: EventMessage): Promise<boolean> {
    return this.stageInTransaction(this.pool, message);
  }

  /**
   * Claims the rows that became available first (staging order, a retried row behind the rows staged before
   * its retry). See `claimStatement`: the plan walks the front of the due index and updates by row address,
   * so the cost follows the batch, not the backlog, whatever the statistics say about any outbox id.
   */
  async claim(owner: string, limit: number, leaseMs: number): Promise<ClaimedOutboxMessage[]> {
    await this.ready();
    const result = await this.query(this.dispatch, claimStatement(this.table), [
      this.outboxId,
      limit,
      owner,
      leaseMs,
    ]);
    return (result.rows as Array<{ id: string; message: EventMessage; attempts: number; available_at: Date }>)
      .sort((a, b) => a.available_at.getTime() - b.available_at.getTime())
      .map((row) => ({ id: row.id, message: row.message, attempt: row.attempts }));
  }

  async complete(id: string, owner: string): Promise<boolean> {
    return (await this.completeMany([id], owner)).length === 1;
  }

  /** Settles every listed row as dispatched in one statement; answers the ids whose claim was still held. */
  async completeMany(ids: readonly string[], owner: string): Promise<readonly string[]> {
    const held = `outbox_id = $1 AND id = ANY($2::text[]) AND claim_owner = $3 AND status = 'pending'`;
    const result = await this.query(
      this.dispatch,
      this.deleteDispatched
        ? `DELETE FROM ${this.table} WHERE ${held} RETURNING id`
        : `UPDATE ${this.table} SET status = 'dispatched', settled_at = clock_timestamp(), claim_owner = NULL,
                  claim_expires_at = NULL
            WHERE ${held}
           RETURNING id`,
      [this.outboxId, ids, owner],
    );
    return (result.rows as Array<{ id: string }>).map((row) => row.id);
  }

  /** Extends the claims `owner` still holds on `ids` by `leaseMs` from now, in one statement; answers those ids. */
  async extend(ids: readonly string[], owner: string, leaseMs: number): Promise<readonly string[]> {
    const result = await this.query(
      this.dispatch,
      `UPDATE ${this.table} SET claim_expires_at = clock_timestamp() + $4 * interval '1 millisecond'
        WHERE outbox_id = $1 AND id = ANY($2::text[]) AND claim_owner = $3 AND status = 'pending'
       RETURNING id`,
      [this.outboxId, ids, owner, leaseMs],
    );
    return (result.rows as Array<{ id: string }>).map((row) => row.id);
  }

  retry(id: string, owner: string, availableAt: Date, error: string): Promise<boolean> {
    return this.settle(id, owner, `available_at = $4, last_error = $5`, [availableAt, error]);
  }

  /** Gives a claimed row back untouched: claimable at once, in its place, the attempt its claim counted uncounted. */
  async release(id: string, owner: string): Promise<boolean> {
    const result = await this.query(
      this.dispatch,
      `UPDATE ${this.table} SET claim_owner = NULL, claim_expires_at = NULL, attempts = greatest(attempts - 1, 0)
        WHERE outbox_id = $1 AND id = $2 AND claim_owner = $3 AND status = 'pending'`,
      [this.outboxId, id, owner],
    );
    return result.rowCount === 1;
  }

  fail(id: string, owner: string, error: string): Promise<boolean> {
    return this.settle(id, owner, `status = 'failed', settled_at = clock_timestamp(), last_error = $4`, [
      error,
    ]);
  }

  async pendingCount(): Promise<number> {
    await this.ready();
    const result = await this.query(
      this.pool,
      `SELECT count(*)::int AS count FROM ${this.table} WHERE outbox_id = $1 AND status = 'pending'`,
      [this.outboxId],
    );
    return (result.rows[0] as { count: number }).count;
  }

  /** Deletes dispatched rows settled more than `olderThanMs` ago; answers how many. Failed rows stay. */
  async purgeDispatched(olderThanMs: number): Promise<number> {
    await this.ready();
    const result = await this.query(
      this.pool,
      `DELETE FROM ${this.table} WHERE outbox_id = $1 AND status = 'dispatched'
         AND settled_at < clock_timestamp() - $2 * interval '1 millisecond'`,
      [this.outboxId, olderThanMs],
    );
    return result.rowCount ?? 0;
  }

  private async settle(id: string, owner: string, assignments: string, values: unknown[]): Promise<boolean> {
    const result = await this.query(
      this.dispatch,
      `UPDATE ${this.table} SET ${assignments}, claim_owner = NULL, claim_expires_at = NULL
        WHERE outbox_id = $1 AND id = $2 AND claim_owner = $3 AND status = 'pending'`,
      [this.outboxId, id, owner, ...values],
    );
    return result.rowCount === 1;
  }
}

/**
 * The claim (parameters: outbox id, limit, owner, lease in milliseconds). The CTE locks the first `limit` due
 * rows of the outbox through the partial due index `(outbox_id, available_at) WHERE status = 'pending'`
 * (`FOR UPDATE SKIP LOCKED`, an index scan under the LIMIT); the UPDATE then finds exactly those rows by
 * their address (`ctid = ANY(...)`, a TID scan). Joining back on `(outbox_id, id)` instead let the planner,
 * when its statistics said an outbox id had few rows (a new one, or after a quiet period), scan every row of
 * that outbox id, dispatched ones included, once per claim. A locked row cannot move before the statement
 * ends; a row updated by another transaction between the snapshot and the lock is simply not claimed this
 * time.
 */
export function claimStatement(table: string): string {
  return `WITH due AS (
       SELECT ctid FROM ${table}
        WHERE outbox_id = $1 AND status = 'pending' AND available_at <= clock_timestamp()
          AND (claim_owner IS NULL OR claim_expires_at <= clock_timestamp())
        ORDER BY available_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED)
     UPDATE ${table} AS outbox
        SET claim_owner = $3, claim_expires_at = clock_timestamp() + $4 * interval '1 millisecond',
            attempts = outbox.attempts + 1
      WHERE outbox.ctid = ANY(ARRAY(SELECT ctid FROM due))
     RETURNING outbox.id, outbox.message, outbox.attempts, outbox.available_at`;
}
