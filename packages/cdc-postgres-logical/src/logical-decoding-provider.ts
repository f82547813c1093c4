import type { CdcCaptureDescriptor } from '@corekit/abstractions';
import {
  CdcProviderError,
  cdcOutboxTableStatement,
  quoteQualified,
  type CaptureRestart,
  type CdcPollingProvider,
  type StagedBatch,
} from '@corekit/data';
import pg from 'pg';
import { classify } from './logical-errors';
import { prepareSlot } from './logical-slot';
import { logicalSourceOf } from './logical-source';
import { openStream, type DecodedChange, type DecodedTransaction, type Stream } from './logical-stream';
import { compareLsn, previousLsn } from './lsn';
import { snapshotCheckpoint, snapshotProgressOf, SnapshotReader, type SnapshotRow } from './logical-snapshot';

export interface PostgresLogicalDecodingProviderOptions {
  readonly connectionString: string;
  readonly outboxTable: string;
  readonly maxBufferedChanges: number;
  readonly timeoutMilliseconds: number;
  /** `initial`: a new capture first reads the rows the table holds; `never`: only later changes. */
  readonly snapshotMode?: 'initial' | 'never';
  /** A statement run while a stream is idle, at most every `intervalMilliseconds` (see HeartbeatQuery). */
  readonly heartbeat?: { readonly query: string; readonly intervalMilliseconds: number };
}

/**
 * The logical-decoding provider (capture provider `postgresql-logical`): per capture a replication slot
 * (`pgoutput`) and a publication on the source table, streamed with the replication protocol
 * (`pg-logical-replication`). Inserts, updates and deletes arrive whole transaction by whole transaction in
 * commit order; a batch stages whole transactions (at least one, so a batch can exceed `BatchSize`) into the
 * outbox table in one statement, each change with the id `<commit LSN>:<position>` (so staging a transaction
 * twice leaves one message). The checkpoint is the commit end LSN of the batch's last transaction; it is
 * confirmed to the slot (`acknowledge`) only after staging, so the server keeps every unstaged change and
 * sends it again after a crash. The slot's lag (bytes of WAL it holds back) is published on the state.
 */
export class PostgresLogicalDecodingProvider implements CdcPollingProvider {
  readonly provider = 'postgresql-logical';
  readonly acknowledgerServiceType = 'postgresql-replication-slot';
  private pool: pg.Pool | null = null;
  private readonly outbox: string;
  private readonly streams = new Map<string, Stream>();
  /** An operator's restart makes the slot again: from now (`accept-gap`) or with a snapshot first. */
  readonly restarts: readonly CaptureRestart[] = ['accept-gap', 're-snapshot'];
  /** Snapshots being read, per capture (the stream opens once the snapshot is done). */
  private readonly snapshots = new Map<string, SnapshotReader>();
  /** When each capture's heartbeat statement last ran (epoch ms). */
  private readonly heartbeats = new Map<string, number>();
  private schemaReady: Promise<void> | null = null;

  constructor(private readonly options: PostgresLogicalDecodingProviderOptions) {
    this.outbox = quoteQualified(options.outboxTable);
  }

  private queries(): pg.Pool {
    if (!this.pool) {
      this.pool = new pg.Pool({
        connectionString: this.options.connectionString,
        max: 2,
        connectionTimeoutMillis: this.options.timeoutMilliseconds,
        statement_timeout: this.options.timeoutMilliseconds,
        idleTimeoutMillis: 10_000,
        allowExitOnIdle: true,
      });
      this.pool.on('error', () => undefined);
    }
    return this.pool;
  }

  private ensureSchema(): Promise<void> {
    this.schemaReady ??= this.queries()
      .query(cdcOutboxTableStatement(this.outbox))
      .then(() => undefined)
      .catch((error: unknown) => {
        this.schemaReady = null;
        throw error;
      });
    return this.schemaReady;
  }

  /** `metadata.snapshotMode` of the capture, else the provider's (default `initial`). */
  private snapshotModeOf(capture: CdcCaptureDescriptor): 'initial' | 'never' {
    const mode = capture.metadata.snapshotMode ?? this.options.snapshotMode ?? 'initial';
    if (mode !== 'initial' && mode !== 'never') {
      throw new CdcProviderError(
        'source',
        'CDC_SNAPSHOT_MODE_INVALID',
        `metadata.snapshotMode is "${String(mode)}"; use initial or never`,
      );
    }
    return mode;
  }

  /** Closes the capture's stream and snapshot (an operator's restart starts over). */
  private async forget(captureId: string): Promise<void> {
    const stream = this.streams.get(captureId);
    this.streams.delete(captureId);
    await stream?.service.destroy().catch(() => undefined);
    const snapshot = this.snapshots.get(captureId);
    this.snapshots.delete(captureId);
    await snapshot?.close();
  }

  /**
   * What the next batch reads: the snapshot being read, else the open stream, else (checking the slot on
   * every open, so a slot dropped while the stream was down is a gap) a new snapshot or stream.
   */
  private async sourceFor(request: {
    capture: CdcCaptureDescriptor;
    checkpoint: string | null;
    restart?: CaptureRestart;
  }): Promise<Stream | SnapshotReader> {
    const id = request.capture.id;
    if (request.restart) await this.forget(id);
    const snapshot = this.snapshots.get(id);
    if (snapshot) return snapshot;
    const existing = this.streams.get(id);
    if (existing && !existing.failure) return existing;
    if (existing) {
      this.streams.delete(id);
      await existing.service.destroy().catch(() => undefined);
      throw existing.failure;
    }
    const { table, publication, slot } = logicalSourceOf(request.capture);
    const progress = snapshotProgressOf(request.checkpoint);
    const wanted =
      request.restart === 're-snapshot' ||
      (request.restart === undefined && this.snapshotModeOf(request.capture) === 'initial');
    const prepared = await prepareSlot(this.queries(), {
      table,
      publication,
      slot,
      checkpoint: request.checkpoint,
      restart: request.restart,
      ...(wanted
        ? {
            exportSnapshot: {
              connectionString: this.options.connectionString,
              timeoutMilliseconds: this.options.timeoutMilliseconds,
            },
          }
        : {}),
    });
    // A snapshot is read when the slot was just made with one, when one was under way (its checkpoint), or
    // for a new capture whose slot already existed (made by a process that died before its first checkpoint).
    const consistentPoint =
      prepared.exported?.consistentPoint ??
      progress?.consistentPoint ??
      (wanted && request.checkpoint === null ? prepared.confirmedLsn : null);
    if (consistentPoint === null) {
      const stream = await openStream(
        this.options,
        logicalSourceOf(request.capture),
        request.checkpoint,
        prepared,
      );
      this.streams.set(id, stream);
      return stream;
    }
    try {
      const reader = await SnapshotReader.start({
        connectionString: this.options.connectionString,
        timeoutMilliseconds: this.options.timeoutMilliseconds,
        table,
        consistentPoint,
        exported: prepared.exported,
        lastKey: progress?.lastKey ?? null,
      });
      this.snapshots.set(id, reader);
      return reader;
    } catch (error) {
      // A slot made for a snapshot that cannot be read would stream without the rows: drop it again.
      if (prepared.exported)
        await this.queries()
          .query('SELECT pg_drop_replication_slot($1)', [slot])
          .catch(() => undefined);
      throw error;
    }
  }

  /** One chunk of the snapshot staged (operation `read`); an empty chunk hands over to the stream. */
  private async snapshotBatch(
    request: { capture: CdcCaptureDescriptor; batchSize: number },
    reader: SnapshotReader,
  ): Promise<StagedBatch> {
    const { table, slot } = logicalSourceOf(request.capture);
    let rows: SnapshotRow[];
    try {
      rows = await reader.read(request.batchSize);
    } catch (error) {
      await this.forget(request.capture.id);
      throw classify(error, table);
    }
    const done = rows.length === 0;
    const metadata = {
      replicationSlot: slot,
      snapshotState: done ? 'done' : 'running',
      snapshotRowsRead: reader.rowsRead + rows.length,
      snapshotExact: reader.exact,
    };
    const base = { lagSeconds: null, completeness: { state: 'guaranteed' as const, reason: null } };
    if (done) {
      this.snapshots.delete(request.capture.id);
      await reader.close();
      return {
        ...base,
        capturedChangeCount: 0,
        producedMessageCount: 0,
        lastChangeId: null,
        nextCheckpoint: reader.consistentPoint,
        metadata,
      };
    }
    const [schema, name] = table.includes('.') ? table.split('.') : ['public', table];
    const changes = rows.map((row) => ({
      changeId: `snapshot:${reader.consistentPoint}:${JSON.stringify(row.key)}`,
      payload: {
        operation: 'read',
        schema,
        table: name,
        new: row.row,
        key: reader.keyOf(row),
        commitLsn: reader.consistentPoint,
      },
    }));
    const produced = await this.stage(request.capture, table, changes);
    reader.advance(rows);
    return {
      ...base,
      capturedChangeCount: changes.length,
      producedMessageCount: produced,
      lastChangeId: changes.at(-1)!.changeId,
      nextCheckpoint: snapshotCheckpoint(reader.progress),
      metadata,
    };
  }

  /** Inserts changes into the outbox in one statement; answers how many were new. */
  private async stage(
    capture: CdcCaptureDescriptor,
    table: string,
    changes: readonly DecodedChange[],
  ): Promise<number> {
    try {
      const result = await this.queries().query<{ produced: number }>(
        `WITH inserted AS (
           INSERT INTO ${this.outbox} (cdc_capture_id, change_id, source_table, event_format, payload)
           SELECT $1, c.change_id, $2, $3, c.payload
             FROM unnest($4::text[], $5::jsonb[]) AS c(change_id, payload)
           ON CONFLICT (cdc_capture_id, change_id) DO NOTHING RETURNING 1)
         SELECT count(*)::int AS produced FROM inserted`,
        [
          capture.id,
          table,
          capture.eventFormat,
          changes.map((change) => change.changeId),
          changes.map((change) => JSON.stringify(change.payload)),
        ],
      );
      return result.rows[0]!.produced;
    } catch (error) {
      throw classify(error, table, 'staging');
    }
  }

  async stageBatch(request: {
    capture: CdcCaptureDescriptor;
    checkpoint: string | null;
    batchSize: number;
    restart?: CaptureRestart;
  }): Promise<StagedBatch> {
    const { table, slot } = logicalSourceOf(request.capture);
    let source: Stream | SnapshotReader;
    try {
      await this.ensureSchema();
      source = await this.sourceFor(request);
    } catch (error) {
      throw classify(error, table);
    }
    if (source instanceof SnapshotReader) return this.snapshotBatch(request, source);
    const stream = source;
    // Measured before taking: between taking transactions and staging them nothing may await, or a keepalive
    // would find the stream idle and confirm past transactions that are in no buffer and not yet staged.
    const { metadata, retention } = await this.slotState(slot, stream);
    const taken: DecodedTransaction[] = [];
    let count = 0;
    while (stream.transactions.length > 0) {
      const next = stream.transactions[0]!;
      if (taken.length > 0 && count + next.changes.length > request.batchSize) break;
      taken.push(next);
      count += next.changes.length;
      stream.transactions.shift();
    }
    stream.staging += taken.length;
    if (taken.length === 0) {
      const heartbeatError = await this.heartbeat(request.capture.id);
      // The first checkpoint is the slot's creation point; later, what keepalives confirmed while idle.
      const position = stream.createdAtLsn ?? stream.confirmed;
      stream.createdAtLsn = null;
      const moved =
        position !== '0/0' && (request.checkpoint === null || compareLsn(position, request.checkpoint) > 0);
      return {
        capturedChangeCount: 0,
        producedMessageCount: 0,
        lastChangeId: null,
        nextCheckpoint: moved ? position : null,
        lagSeconds: null,
        completeness: { state: 'guaranteed', reason: null },
        metadata: { ...metadata, ...(heartbeatError ? { heartbeatError } : {}) },
        retention,
      };
    }
    const changes = taken.flatMap((transaction) => transaction.changes);
    try {
      const produced = await this.stage(request.capture, table, changes);
      // Staged: the buffer has room again.
      stream.buffered -= count;
      const resume = stream.room;
      stream.room = null;
      resume?.();
      const last = taken.at(-1)!;
      return {
        capturedChangeCount: changes.length,
        producedMessageCount: produced,
        lastChangeId: changes.at(-1)!.changeId,
        nextCheckpoint: last.commitEndLsn,
        lagSeconds: Math.max(0, (Date.now() - last.commitTimeMs) / 1000),
        completeness: { state: 'guaranteed', reason: null },
        metadata,
        retention,
      };
    } catch (error) {
      // Not staged: put the transactions back in front, in order.
      stream.transactions.unshift(...taken);
      throw error;
    } finally {
      stream.staging -= taken.length;
    }
  }

  /**
   * Runs the heartbeat statement when one is configured and its interval has passed for this capture;
   * answers its error (never fatal: the stream goes on, the state's metadata shows it), else null.
   */
  private async heartbeat(captureId: string): Promise<string | null> {
    const heartbeat = this.options.heartbeat;
    if (!heartbeat) return null;
    const now = Date.now();
    if (now - (this.heartbeats.get(captureId) ?? 0) < heartbeat.intervalMilliseconds) return null;
    this.heartbeats.set(captureId, now);
    try {
      await this.queries().query(heartbeat.query);
      return null;
    } catch (error) {
      return classify(error, 'heartbeat').message.slice(0, 300);
    }
  }

  /** Confirms the staged batch's commit end LSN to the slot: the server may now drop what comes before. */
  async acknowledge(request: { capture: CdcCaptureDescriptor; batch: StagedBatch }): Promise<void> {
    const checkpoint = request.batch.nextCheckpoint;
    // A snapshot chunk confirms nothing: the slot stays at the consistent point until the snapshot is done,
    // and then it is already there.
    if (checkpoint === null || snapshotProgressOf(checkpoint)) return;
    const stream = this.streams.get(request.capture.id);
    if (!stream && request.batch.metadata?.snapshotState === 'done') return;
    // Already confirmed (a keepalive confirmed past it while idle): never send a position backwards.
    if (stream && !stream.failure && compareLsn(checkpoint, stream.confirmed) <= 0) return;
    if (!stream || stream.failure || !(await stream.service.acknowledge(previousLsn(checkpoint)))) {
      throw new CdcProviderError(
        'provider',
        'CDC_SLOT_NOT_CONFIRMED',
        `the replication stream of ${request.capture.id} is closed; ${checkpoint} stays unconfirmed and is sent again`,
      );
    }
    stream.confirmed = checkpoint;
    if (stream.transactions.length === 0) stream.caughtUpAtMs = Date.now();
  }

  /**
   * The slot's confirmed LSN and the WAL it holds back for the capture's runtime state: `slotLagBytes`
   * (current WAL position minus the confirmed one), `slotRetainedBytes` (minus the restart LSN: what the
   * server keeps on disk for the slot), and as retention the lag in bytes and the seconds since the confirmed
   * position last caught up with what was received.
   */
  private async slotState(
    slot: string,
    stream: Stream,
  ): Promise<Pick<StagedBatch, 'metadata' | 'retention'>> {
    const result = await this.queries().query<{
      confirmed: string | null;
      lag: string | null;
      retained: string | null;
    }>(
      `SELECT confirmed_flush_lsn::text AS confirmed,
              pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::bigint::text AS lag,
              pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint::text AS retained
         FROM pg_replication_slots WHERE slot_name = $1`,
      [slot],
    );
    const row = result.rows[0];
    const bytes = (value: string | null | undefined) =>
      value === null || value === undefined ? -1 : Math.max(0, Number(value));
    const lagBytes = bytes(row?.lag);
    const caughtUp = stream.transactions.length === 0 && stream.staging === 0;
    return {
      metadata: {
        replicationSlot: slot,
        slotConfirmedLsn: row?.confirmed ?? 'none',
        slotLagBytes: lagBytes,
        slotRetainedBytes: bytes(row?.retained),
      },
      retention: {
        bytes: lagBytes < 0 ? null : lagBytes,
        seconds: caughtUp && lagBytes === 0 ? 0 : Math.max(0, (Date.now() - stream.caughtUpAtMs) / 1000),
      },
    };
  }

  async close(): Promise<void> {
    for (const snapshot of this.snapshots.values()) await snapshot.close();
    this.snapshots.clear();
    const streams = [...this.streams.values()];
    this.streams.clear();
    for (const stream of streams) {
      stream.room?.();
      await stream.service.destroy().catch(() => undefined);
    }
    const pool = this.pool;
    this.pool = null;
    this.schemaReady = null;
    await pool?.end().catch(() => undefined);
  }
}
