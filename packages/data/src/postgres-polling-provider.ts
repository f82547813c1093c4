import {
  DatabaseClientTelemetry,
  databaseTargetOfUrl,
  sqlOperationOf,
  type CdcCaptureDescriptor,
  type DatabaseClientTarget,
  type PackTelemetry,
} from '@corekit/abstractions';
import pg from 'pg';
import { CdcProviderError, type CdcPollingProvider, type StagedBatch } from './polling-provider';

const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `schema.table` → `"schema"."table"`; refuses anything that is not a plain identifier. */
export function quoteQualified(name: string): string {
  const parts = name.split('.');
  if (parts.length > 2 || !parts.every((part) => identifierPattern.test(part))) {
    throw new CdcProviderError(
      'source',
      'CDC_SOURCE_NAME_INVALID',
      `"${name}" is not a plain table or column name`,
    );
  }
  return parts.map((part) => `"${part}"`).join('.');
}

/**
 * The CDC outbox table every PostgreSQL capture provider stages into (the polling pump here, logical decoding
 * in `@corekit/cdc-postgres-logical`): one row per change, unique per (capture, change id) so staging a batch
 * again is harmless. One definition, so the providers and the consumers of the table never disagree.
 */
export function cdcOutboxTableStatement(outbox: string): string {
  return `CREATE TABLE IF NOT EXISTS ${outbox} (
          id bigserial PRIMARY KEY,
          cdc_capture_id text NOT NULL,
          change_id text NOT NULL,
          source_table text NOT NULL,
          event_format text NOT NULL,
          payload jsonb NOT NULL,
          staged_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (cdc_capture_id, change_id))`;
}

/**
 * Where a capture reads: `metadata.sourceTable` (else its first resource id), `metadata.changeColumn`
 * (default `change_id`) and `metadata.transactionColumn` (default `change_xid`: the writing transaction's id,
 * `xid8 DEFAULT pg_current_xact_id()`).
 */
export function sourceOf(capture: CdcCaptureDescriptor): {
  table: string;
  changeColumn: string;
  transactionColumn: string;
} {
  const table = capture.metadata.sourceTable ?? capture.resourceIds[0] ?? capture.sourceId;
  const changeColumn = capture.metadata.changeColumn ?? 'change_id';
  const transactionColumn = capture.metadata.transactionColumn ?? 'change_xid';
  return {
    table: String(table),
    changeColumn: String(changeColumn),
    transactionColumn: String(transactionColumn),
  };
}

/**
 * A guarded checkpoint is `<transaction id>:<change value>`: the position of the last staged change in
 * (transaction id, change value) order. A checkpoint without the prefix is a change value alone (written by an
 * unguarded read, or by the pump before it read transaction ids).
 */
export function parseCheckpoint(checkpoint: string): { transaction: string | null; change: string } {
  const match = /^(\d+):(.*)$/s.exec(checkpoint);
  return match ? { transaction: match[1], change: match[2] } : { transaction: null, change: checkpoint };
}

/** How long a source found without a usable transaction column is trusted before it is looked at again. */
const unguardedRecheckMilliseconds = 60_000;

export interface PostgresPollingProviderOptions {
  readonly connectionString: string;
  readonly outboxTable: string;
  readonly timeoutMilliseconds: number;
  /**
   * Refuse captures whose table has no transaction column (they could skip a change committed out of order)
   * instead of running them `not-guaranteed`; a capture's `metadata.requireCompleteness` overrides it.
   */
  readonly requireCompleteness?: boolean;
}

/** Whether a capture must be complete: `metadata.requireCompleteness`, else the pump's setting. */
function completenessRequired(capture: CdcCaptureDescriptor, pumpDefault: boolean): boolean {
  const value = capture.metadata.requireCompleteness;
  return value === undefined ? pumpDefault : value === true || value === 'true';
}

const sourceErrorCodes = new Set(['42P01', '42501', '42703', '3F000', '42883']);

/**
 * The PostgreSQL polling provider: reads rows whose monotonic change column is above the checkpoint, in change
 * order, at most a batch, and inserts them into the outbox table in the same statement (one transaction);
 * the outbox's unique key (capture, change id) with ON CONFLICT DO NOTHING makes re-staging a batch harmless.
 * Acknowledgement upserts the capture's checkpoint in `<outbox>_acknowledgements`, the provider-side record a
 * downstream dispatcher may read. It cannot see deletes or updates that do not move the change column.
 */
export class PostgresPollingProvider implements CdcPollingProvider {
  readonly provider = 'postgresql';
  readonly acknowledgerServiceType = 'postgresql-outbox-acknowledgement';
  private readonly pool: pg.Pool;
  private readonly outbox: string;
  private readonly acknowledgements: string;
  private schemaReady: Promise<void> | null = null;
  private readonly guards = new Map<string, { guarded: boolean; checkedAt: number }>();
  readonly database: DatabaseClientTarget;
  private readonly telemetry: DatabaseClientTelemetry;

  constructor(private readonly options: PostgresPollingProviderOptions) {
    this.database = databaseTargetOfUrl('postgresql', options.connectionString, { port: 5432 });
    this.telemetry = new DatabaseClientTelemetry(this.database);
    this.outbox = quoteQualified(options.outboxTable);
    this.acknowledgements = quoteQualified(`${options.outboxTable}_acknowledgements`);
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: 2,
      connectionTimeoutMillis: options.timeoutMilliseconds,
      statement_timeout: options.timeoutMilliseconds,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    });
    this.pool.on('error', () => undefined);
  }

  /** Measures every statement from now on (the pump host calls it with the engine's meter and tracer). */
  useTelemetry(telemetry: PackTelemetry): void {
    this.telemetry.use(telemetry);
  }

  /**
   * One statement as one database operation, named by its first keyword; `collection` is the first table it
   * names (the source of a staging read, the outbox, the acknowledgements), omitted for catalog lookups.
   */
  private query<R extends pg.QueryResultRow>(
    collection: string | undefined,
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    return this.telemetry.operation(
      { name: sqlOperationOf(text), ...(collection ? { collection } : {}) },
      () => this.pool.query<R>(text, values),
    );
  }

  private ensureSchema(): Promise<void> {
    this.schemaReady ??= this.query(
      this.options.outboxTable,
      `${cdcOutboxTableStatement(this.outbox)};
        CREATE TABLE IF NOT EXISTS ${this.acknowledgements} (
          cdc_capture_id text PRIMARY KEY,
          checkpoint text NOT NULL,
          acknowledged_at timestamptz NOT NULL DEFAULT now())`,
    )
      .then(() => undefined)
      .catch((error: unknown) => {
        this.schemaReady = null;
        throw classify(error, 'staging');
      });
    return this.schemaReady;
  }

  /**
   * Whether `table` has `column` of type xid8: cached per source, a missing column looked at again after a
   * minute (so adding it takes effect without a restart), a present one until a statement fails.
   */
  private async transactionColumnOf(table: string, column: string): Promise<boolean> {
    const key = `${table}\u0000${column}`;
    const known = this.guards.get(key);
    if (known && (known.guarded || Date.now() - known.checkedAt < unguardedRecheckMilliseconds)) {
      return known.guarded;
    }
    const result = await this.query<{ type: string | null }>(
      undefined,
      `SELECT (SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
               WHERE a.attrelid = to_regclass($1) AND a.attname = $2 AND a.attnum > 0 AND NOT a.attisdropped) AS type`,
      [quoteQualified(table), column],
    );
    const guarded = result.rows[0]?.type === 'xid8';
    this.guards.set(key, { guarded, checkedAt: Date.now() });
    return guarded;
  }

  async stageBatch(request: {
    capture: CdcCaptureDescriptor;
    checkpoint: string | null;
    batchSize: number;
  }): Promise<StagedBatch> {
    await this.ensureSchema();
    const { table, changeColumn, transactionColumn } = sourceOf(request.capture);
    const source = quoteQualified(table);
    const column = quoteQualified(changeColumn);
    const transaction = quoteQualified(transactionColumn);
    const guardKey = `${table}\u0000${transactionColumn}`;
    try {
      if (request.capture.metadata.snapshotMode === 'never') {
        throw new CdcProviderError(
          'prerequisite',
          'CDC_SNAPSHOT_MODE_UNSUPPORTED',
          `a polling capture always starts with the rows ${table} already holds (snapshotMode initial); remove metadata.snapshotMode never, or use logical decoding to start from now`,
        );
      }
      const guarded = await this.transactionColumnOf(table, transactionColumn);
      const reason = `${table} has no xid8 column "${transactionColumn}": a change whose transaction commits after a later change was read is skipped; add it with ALTER TABLE ${source} ADD COLUMN ${transaction} xid8 NOT NULL DEFAULT pg_current_xact_id(), or name yours in metadata.transactionColumn`;
      if (!guarded && completenessRequired(request.capture, this.options.requireCompleteness ?? false)) {
        // Nothing is read or staged: the capture does not start until the column exists.
        throw new CdcProviderError(
          'prerequisite',
          'CDC_PREREQUISITE_TRANSACTION_COLUMN',
          `completeness is required (requireCompleteness): ${reason}; or use logical decoding (@corekit/cdc-postgres-logical)`.slice(
            0,
            500,
          ),
        );
      }
      const values: unknown[] = [request.capture.id, table, request.batchSize, request.capture.eventFormat];
      const position = request.checkpoint === null ? null : parseCheckpoint(request.checkpoint);
      let sql: string;
      if (guarded) {
        // Only changes of transactions older than the oldest one still running: none of those can still
        // commit, and every transaction that has not taken its id yet will take a larger one. Reading in
        // (transaction id, change value) order up to that horizon never passes a change that may commit later.
        const conditions = [`s.${transaction} < pg_snapshot_xmin(pg_current_snapshot())`];
        if (position?.transaction) {
          values.push(position.transaction, position.change);
          conditions.push(`(s.${transaction}, s.${column}) > ($5::xid8, $6)`);
        } else if (position) {
          // A checkpoint written before the source had its transaction column: resume after its change value.
          values.push(position.change);
          conditions.push(`s.${column} > $5`);
        }
        sql = `WITH batch AS (
            SELECT s.${transaction} AS change_transaction, s.${column} AS change_value, to_jsonb(s) AS payload
            FROM ${source} s WHERE ${conditions.join(' AND ')}
            ORDER BY s.${transaction}, s.${column} LIMIT $3),
          inserted AS (
            INSERT INTO ${this.outbox} (cdc_capture_id, change_id, source_table, event_format, payload)
            SELECT $1, b.change_value::text, $2, $4, b.payload FROM batch b
            ON CONFLICT (cdc_capture_id, change_id) DO NOTHING RETURNING 1),
          last AS (SELECT change_transaction, change_value FROM batch
            ORDER BY change_transaction DESC, change_value DESC LIMIT 1)
          SELECT (SELECT count(*) FROM batch)::int AS captured, (SELECT count(*) FROM inserted)::int AS produced,
            (SELECT change_value::text FROM last) AS last_change,
            (SELECT change_transaction::text FROM last) AS last_transaction`;
      } else {
        if (position) values.push(position.change);
        sql = `WITH batch AS (
            SELECT s.${column} AS change_value, to_jsonb(s) AS payload FROM ${source} s
            ${position ? `WHERE s.${column} > $5` : ''}
            ORDER BY s.${column} LIMIT $3),
          inserted AS (
            INSERT INTO ${this.outbox} (cdc_capture_id, change_id, source_table, event_format, payload)
            SELECT $1, b.change_value::text, $2, $4, b.payload FROM batch b
            ON CONFLICT (cdc_capture_id, change_id) DO NOTHING RETURNING 1)
          SELECT (SELECT count(*) FROM batch)::int AS captured, (SELECT count(*) FROM inserted)::int AS produced,
            (SELECT max(change_value)::text FROM batch) AS last_change, NULL::text AS last_transaction`;
      }
      const result = await this.query<{
        captured: number;
        produced: number;
        last_change: string | null;
        last_transaction: string | null;
      }>(table, sql, values);
      const row = result.rows[0];
      return {
        capturedChangeCount: row.captured,
        producedMessageCount: row.produced,
        lastChangeId: row.last_change,
        nextCheckpoint:
          row.last_change === null
            ? null
            : row.last_transaction === null
              ? row.last_change
              : `${row.last_transaction}:${row.last_change}`,
        lagSeconds: null,
        completeness: guarded ? { state: 'guaranteed', reason: null } : { state: 'not-guaranteed', reason },
      };
    } catch (error) {
      this.guards.delete(guardKey);
      throw classify(error, 'staging', table);
    }
  }

  async acknowledge(request: { capture: CdcCaptureDescriptor; batch: StagedBatch }): Promise<void> {
    if (request.batch.nextCheckpoint === null) return;
    await this.query(
      `${this.options.outboxTable}_acknowledgements`,
      `INSERT INTO ${this.acknowledgements} (cdc_capture_id, checkpoint) VALUES ($1, $2)
       ON CONFLICT (cdc_capture_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, acknowledged_at = now()`,
      [request.capture.id, request.batch.nextCheckpoint],
    );
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Maps a driver error to a failure class with a message free of connection details. */
function classify(error: unknown, fallback: 'staging' | 'provider', table?: string): CdcProviderError {
  if (error instanceof CdcProviderError) return error;
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string' && sourceErrorCodes.has(code)) {
    return new CdcProviderError(
      'source',
      'CDC_SOURCE_UNAVAILABLE',
      `source ${table ?? ''} unavailable (${code}): ${message}`.slice(0, 500),
    );
  }
  if (
    typeof code === 'string' &&
    /^[0-9A-Z]{5}$/.test(code) &&
    !code.startsWith('08') &&
    !code.startsWith('57')
  ) {
    return new CdcProviderError(
      fallback,
      'CDC_STAGING_FAILED',
      `staging failed (${code}): ${message}`.slice(0, 500),
    );
  }
  return new CdcProviderError(
    'provider',
    'CDC_PROVIDER_UNAVAILABLE',
    `PostgreSQL unavailable: ${typeof code === 'string' ? `${code} ` : ''}${message.replace(/postgres(ql)?:\/\/\S+/gi, '<connection>')}`.slice(
      0,
      500,
    ),
  );
}
