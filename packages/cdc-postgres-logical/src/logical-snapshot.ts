import { CdcProviderError, quoteQualified } from '@corekit/data';
import pg from 'pg';

/** A snapshot checkpoint: `snapshot:<consistent point LSN>:<last key as a JSON array of text>`. */
export interface SnapshotProgress {
  readonly consistentPoint: string;
  readonly lastKey: readonly string[] | null;
}

const progressPattern = /^snapshot:([0-9A-F]+\/[0-9A-F]+):(.*)$/s;

/** The snapshot progress a checkpoint holds, or null for a stream position (an LSN). */
export function snapshotProgressOf(checkpoint: string | null): SnapshotProgress | null {
  const match = checkpoint === null ? null : progressPattern.exec(checkpoint);
  if (!match) return null;
  const key = match[2] === '' ? null : (JSON.parse(match[2]!) as string[]);
  return { consistentPoint: match[1]!, lastKey: key };
}

export function snapshotCheckpoint(progress: SnapshotProgress): string {
  return `snapshot:${progress.consistentPoint}:${progress.lastKey === null ? '' : JSON.stringify(progress.lastKey)}`;
}

/** A slot made with its snapshot exported: the replication connection holding it, until it is imported. */
export interface ExportedSnapshot {
  readonly consistentPoint: string;
  readonly snapshotName: string;
  readonly holder: pg.Client;
}

/**
 * Makes the logical slot over a replication connection with `EXPORT_SNAPSHOT`: the snapshot it answers sees
 * exactly the transactions committed before the slot's consistent point, so rows read in it and changes
 * streamed from the slot meet without a hole or an overlap. The connection must stay open and idle until the
 * snapshot is imported (`SnapshotReader.start`).
 */
export async function createSlotWithSnapshot(
  connectionString: string,
  slot: string,
  timeoutMilliseconds: number,
): Promise<ExportedSnapshot> {
  const holder = new pg.Client({
    connectionString,
    replication: 'database',
    connectionTimeoutMillis: timeoutMilliseconds,
  } as pg.ClientConfig);
  holder.on('error', () => undefined);
  await holder.connect();
  try {
    const result = await holder.query<{ consistent_point: string; snapshot_name: string }>(
      `CREATE_REPLICATION_SLOT "${slot}" LOGICAL pgoutput EXPORT_SNAPSHOT`,
    );
    const row = result.rows[0]!;
    return { consistentPoint: row.consistent_point, snapshotName: row.snapshot_name, holder };
  } catch (error) {
    await holder.end().catch(() => undefined);
    throw error;
  }
}

interface KeyColumn {
  readonly name: string;
  readonly type: string;
}

/** One row of the snapshot: its key (text of each primary-key column) and the row as JSON. */
export interface SnapshotRow {
  readonly key: string[];
  readonly row: Record<string, unknown>;
}

/**
 * Reads a table's rows in primary-key order, chunk by chunk, inside one REPEATABLE READ transaction: in the
 * slot's exported snapshot (an exact hand-off), or, resuming after the process that held it died, in a new
 * snapshot after the last key staged (rows changed since the consistent point then arrive again from the
 * stream: at least once at the seam, never lost, because the slot stays at the consistent point until the
 * snapshot is done).
 */
export class SnapshotReader {
  private lastKey: readonly string[] | null;
  rowsRead = 0;

  private constructor(
    private readonly client: pg.Client,
    private readonly table: string,
    private readonly keys: readonly KeyColumn[],
    readonly consistentPoint: string,
    readonly exact: boolean,
    lastKey: readonly string[] | null,
  ) {
    this.lastKey = lastKey;
  }

  static async start(options: {
    readonly connectionString: string;
    readonly timeoutMilliseconds: number;
    readonly table: string;
    readonly consistentPoint: string;
    readonly exported: ExportedSnapshot | null;
    readonly lastKey: readonly string[] | null;
  }): Promise<SnapshotReader> {
    const client = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.timeoutMilliseconds,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      if (options.exported) {
        if (!/^[0-9A-F-]+$/i.test(options.exported.snapshotName)) throw new Error('unexpected snapshot name');
        await client.query(`SET TRANSACTION SNAPSHOT '${options.exported.snapshotName}'`);
      }
      const keys = await client.query<KeyColumn>(
        `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
           FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
          WHERE i.indrelid = to_regclass($1) AND i.indisprimary
          ORDER BY array_position(i.indkey::int2[], a.attnum)`,
        [quoteQualified(options.table)],
      );
      if (keys.rows.length === 0) {
        throw new CdcProviderError(
          'prerequisite',
          'CDC_PREREQUISITE_PRIMARY_KEY',
          `the initial snapshot of ${options.table} reads it in primary-key chunks: add a primary key, or set the capture's metadata.snapshotMode to never`,
        );
      }
      return new SnapshotReader(
        client,
        options.table,
        keys.rows,
        options.consistentPoint,
        options.exported !== null,
        options.lastKey,
      );
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    } finally {
      await options.exported?.holder.end().catch(() => undefined);
    }
  }

  /** Position reached: the checkpoint of the rows read so far. */
  get progress(): SnapshotProgress {
    return { consistentPoint: this.consistentPoint, lastKey: this.lastKey };
  }

  /**
   * The next `limit` rows after the last key staged (none: the snapshot is complete). Reading does not move
   * the position: `advance` does, once the rows are staged, so a refused chunk is read again.
   */
  async read(limit: number): Promise<SnapshotRow[]> {
    const columns = this.keys.map((key) => `t."${key.name.replace(/"/g, '""')}"`);
    const values: unknown[] = [limit];
    let where = '';
    if (this.lastKey) {
      const placeholders = this.keys.map((key, index) => `$${index + 2}::${key.type}`);
      values.push(...this.lastKey);
      where = `WHERE (${columns.join(', ')}) > (${placeholders.join(', ')})`;
    }
    const result = await this.client.query<{ row: Record<string, unknown>; key: string[] }>(
      `SELECT to_jsonb(t) AS row, ARRAY[${columns.map((column) => `${column}::text`).join(', ')}] AS key
         FROM ${quoteQualified(this.table)} t ${where} ORDER BY ${columns.join(', ')} LIMIT $1`,
      values,
    );
    return result.rows.map((row) => ({ key: row.key, row: row.row }));
  }

  /** Moves past `rows` (staged). */
  advance(rows: readonly SnapshotRow[]): void {
    if (rows.length === 0) return;
    this.lastKey = rows.at(-1)!.key;
    this.rowsRead += rows.length;
  }

  /** The key of a row as the outbox payload shows it (column name to value). */
  keyOf(row: SnapshotRow): Record<string, unknown> {
    return Object.fromEntries(this.keys.map((key) => [key.name, row.row[key.name]]));
  }

  async close(): Promise<void> {
    await this.client.query('COMMIT').catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }
}
