import type { CdcCaptureDescriptor } from '@corekit/abstractions';
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

/** Where a capture reads: `metadata.sourceTable` (else its first resource id) and `metadata.changeColumn`. */
export function sourceOf(capture: CdcCaptureDescriptor): { table: string; changeColumn: string } {
  const table = capture.metadata.sourceTable ?? capture.resourceIds[0] ?? capture.sourceId;
  const changeColumn = capture.metadata.changeColumn ?? 'change_id';
  return { table: String(table), changeColumn: String(changeColumn) };
}

export interface PostgresPollingProviderOptions {
  readonly connectionString: string;
  readonly outboxTable: string;
  readonly timeoutMilliseconds: number;
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

  constructor(private readonly options: PostgresPollingProviderOptions) {
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

  private ensureSchema(): Promise<void> {
    this.schemaReady ??= this.pool
      .query(
        `CREATE TABLE IF NOT EXISTS ${this.outbox} (
          id bigserial PRIMARY KEY,
          cdc_capture_id text NOT NULL,
          change_id text NOT NULL,
          source_table text NOT NULL,
          event_format text NOT NULL,
          payload jsonb NOT NULL,
          staged_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (cdc_capture_id, change_id));
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

  async stageBatch(request: {
    capture: CdcCaptureDescriptor;
    checkpoint: string | null;
    batchSize: number;
  }): Promise<StagedBatch> {
    await this.ensureSchema();
    const { table, changeColumn } = sourceOf(request.capture);
    const source = quoteQualified(table);
    const column = quoteQualified(changeColumn);
    const after = request.checkpoint === null ? '' : `WHERE s.${column} > $5`;
    const sql = `WITH batch AS (
        SELECT s.${column} AS change_value, to_jsonb(s) AS payload FROM ${source} s ${after}
        ORDER BY s.${column} LIMIT $3),
      inserted AS (
        INSERT INTO ${this.outbox} (cdc_capture_id, change_id, source_table, event_format, payload)
        SELECT $1, b.change_value::text, $2, $4, b.payload FROM batch b
        ON CONFLICT (cdc_capture_id, change_id) DO NOTHING RETURNING 1)
      SELECT (SELECT count(*) FROM batch)::int AS captured, (SELECT count(*) FROM inserted)::int AS produced,
        (SELECT max(change_value)::text FROM batch) AS last_change`;
    const values: unknown[] = [request.capture.id, table, request.batchSize, request.capture.eventFormat];
    if (request.checkpoint !== null) values.push(request.checkpoint);
    try {
      const result = await this.pool.query<{
        captured: number;
        produced: number;
        last_change: string | null;
      }>(sql, values);
      const row = result.rows[0];
      return {
        capturedChangeCount: row.captured,
        producedMessageCount: row.produced,
        lastChangeId: row.last_change,
        nextCheckpoint: row.last_change,
        lagSeconds: null,
      };
    } catch (error) {
      throw classify(error, 'staging', table);
    }
  }

  async acknowledge(request: { capture: CdcCaptureDescriptor; batch: StagedBatch }): Promise<void> {
    if (request.batch.nextCheckpoint === null) return;
    await this.pool.query(
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
