import { LogicalReplicationService, PgoutputPlugin, type Pgoutput } from 'pg-logical-replication';
import { classify } from './logical-errors';
import type { PreparedSlot } from './logical-slot';
import { compareLsn, formatLsn, laterLsn, previousLsn } from './lsn';

/** One decoded row change, as staged (the outbox payload). */
export interface DecodedChange {
  readonly changeId: string;
  readonly payload: Record<string, unknown>;
}

/** One committed transaction, whole: its changes in order and the LSN that confirms it. */
export interface DecodedTransaction {
  readonly changes: DecodedChange[];
  readonly commitEndLsn: string;
  readonly commitTimeMs: number;
}

/** A live replication stream for one capture: decoded transactions wait here until a batch stages them. */
export interface Stream {
  readonly service: LogicalReplicationService;
  readonly transactions: DecodedTransaction[];
  buffered: number;
  /** Last LSN confirmed to the server (answers its keepalives); only ever moves forward. */
  confirmed: string;
  /** Transactions taken by a batch whose outbox insert has not finished. */
  staging: number;
  /** Epoch ms when the confirmed LSN last caught up with everything received (the slot's lag in time). */
  caughtUpAtMs: number;
  /** The LSN the slot was created at by this open, reported once as the capture's first checkpoint. */
  createdAtLsn: string | null;
  failure: Error | null;
  /** Resolves the data handler once the buffer has room again (backpressure). */
  room: (() => void) | null;
}

/** What opening a stream needs of the provider's options. */
export interface StreamOptions {
  readonly connectionString: string;
  readonly timeoutMilliseconds: number;
  readonly maxBufferedChanges: number;
}

/**
 * Opens a capture's replication stream from `checkpoint` (the server starts at the slot's confirmed LSN when
 * later): decoded transactions wait in `transactions`, whole, in commit order; past `maxBufferedChanges` the
 * data handler waits (the client pauses the socket, the server holds the rest). Keepalives confirm the
 * server's position while nothing of the capture is pending.
 */
export async function openStream(
  options: StreamOptions,
  names: { readonly table: string; readonly publication: string; readonly slot: string },
  checkpoint: string | null,
  prepared: PreparedSlot,
): Promise<Stream> {
  const { table, publication, slot } = names;
  const service = new LogicalReplicationService(
    {
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.timeoutMilliseconds,
    },
    // Never confirm on receipt: only what was staged is confirmed (acknowledge below).
    { acknowledge: { auto: false, timeoutSeconds: 0 }, flowControl: { enabled: true } },
  );
  const stream: Stream = {
    service,
    transactions: [],
    buffered: 0,
    confirmed:
      checkpoint && prepared.confirmedLsn
        ? laterLsn(checkpoint, prepared.confirmedLsn)
        : (checkpoint ?? prepared.confirmedLsn ?? '0/0'),
    staging: 0,
    caughtUpAtMs: Date.now(),
    createdAtLsn: prepared.createdAtLsn,
    failure: null,
    room: null,
  };
  let current: { changes: DecodedChange[]; commitLsn: string | null } | null = null;
  const idle = () =>
    current === null && stream.transactions.length === 0 && stream.staging === 0 && !libraryBusy(service);
  service.on('data', async (_lsn: string, message: Pgoutput.Message) => {
    if (message.tag === 'begin') {
      current = { changes: [], commitLsn: message.commitLsn && formatLsn(message.commitLsn) };
      return;
    }
    if (!current) return;
    if (message.tag === 'insert' || message.tag === 'update' || message.tag === 'delete') {
      const position = current.changes.length;
      current.changes.push({
        changeId: `${current.commitLsn}:${position}`,
        payload: {
          operation: message.tag,
          schema: message.relation.schema,
          table: message.relation.name,
          ...(message.tag === 'delete' ? {} : { new: message.new }),
          ...(message.tag === 'insert' ? {} : { key: message.key, old: message.old }),
          commitLsn: current.commitLsn,
        },
      });
      return;
    }
    if (message.tag === 'commit') {
      const transaction: DecodedTransaction = {
        changes: current.changes,
        commitEndLsn: message.commitEndLsn
          ? formatLsn(message.commitEndLsn)
          : (current.commitLsn ?? stream.confirmed),
        commitTimeMs: Number((message.commitTime as bigint) / 1000n),
      };
      current = null;
      if (transaction.changes.length === 0) return;
      for (const change of transaction.changes)
        (change.payload as { commitTime?: string }).commitTime = new Date(
          transaction.commitTimeMs,
        ).toISOString();
      stream.transactions.push(transaction);
      stream.buffered += transaction.changes.length;
      // Backpressure: the stream stays paused while the buffer is full.
      while (stream.buffered >= options.maxBufferedChanges && !stream.failure && !service.isStop()) {
        await new Promise<void>((resolve) => (stream.room = resolve));
      }
    }
  });
  service.on('heartbeat', (lsn: string, _timestamp: number, shouldRespond: boolean) => {
    // With nothing of the capture pending (no buffered, open or staging transaction, nothing queued in the
    // client), everything before the keepalive's position was processed: confirm it, so a quiet table
    // does not make the slot hold the WAL of every other write on the server.
    const position = formatLsn(lsn);
    if (idle() && compareLsn(position, stream.confirmed) > 0) {
      stream.confirmed = position;
      stream.caughtUpAtMs = Date.now();
      void service.acknowledge(previousLsn(position)).catch(() => undefined);
    } else if (shouldRespond && stream.confirmed !== '0/0') {
      void service.acknowledge(previousLsn(stream.confirmed)).catch(() => undefined);
    }
  });
  service.on('error', (error: Error) => {
    stream.failure ??= error;
    stream.room?.();
  });
  const plugin = new PgoutputPlugin({ protoVersion: 1, publicationNames: [publication] });
  const started = new Promise<void>((resolve, reject) => {
    service.once('start', () => resolve());
    void (
      checkpoint === null ? service.subscribe(plugin, slot) : service.subscribe(plugin, slot, checkpoint)
    ).then(
      () => {
        stream.failure ??= new Error(`replication stream of slot ${slot} ended`);
        reject(stream.failure);
      },
      (error: unknown) => {
        stream.failure ??= error instanceof Error ? error : new Error(String(error));
        reject(stream.failure);
      },
    );
  });
  try {
    await started;
  } catch (error) {
    await service.destroy().catch(() => undefined);
    throw classify(error, table);
  }
  return stream;
}

/**
 * Whether the replication client still holds decoded messages it has not handed to the data handler (with
 * flow control it queues them and hands them over one at a time). `pg-logical-replication` keeps that queue
 * in fields it does not publish; when they are not there (another version), the answer is "busy", so
 * keepalives are then answered with the last staged position only (safe: the slot never passes a change the
 * outbox does not hold; the quiet-table retention test fails and says so).
 */
function libraryBusy(service: LogicalReplicationService): boolean {
  const internals = service as unknown as { _messageQueue?: unknown; _processing?: unknown };
  if (!Array.isArray(internals._messageQueue) || typeof internals._processing !== 'boolean') return true;
  return internals._messageQueue.length > 0 || internals._processing;
}
