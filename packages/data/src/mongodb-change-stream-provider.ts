import {
  DatabaseClientTelemetry,
  databaseTargetOfUrl,
  type CdcCaptureDescriptor,
  type PackTelemetry,
} from '@corekit/abstractions';
import { BSON, MongoBulkWriteError, MongoClient, type ChangeStreamDocument, type Document } from 'mongodb';
import {
  CdcProviderError,
  type CaptureRestart,
  type CdcPollingProvider,
  type StagedBatch,
} from './polling-provider';

export interface MongoChangeStreamProviderOptions {
  readonly connectionString: string;
  readonly defaultDatabase: string;
  readonly outboxCollection: string;
  readonly timeoutMilliseconds: number;
}

/** Where a capture reads: `metadata.database` (else the pump's Database) and `metadata.collection` (else its first resource id). */
export function collectionOf(capture: CdcCaptureDescriptor, defaultDatabase: string) {
  const database = String(capture.metadata.database ?? defaultDatabase);
  const collection = String(capture.metadata.collection ?? capture.resourceIds[0] ?? capture.sourceId);
  return { database, collection };
}

/** Server codes that mean the source itself is the problem (token unknown, namespace gone, access denied). */
const sourceCodes = new Set([260, 280, 26, 13, 73]);
/** ChangeStreamHistoryLost: the oplog no longer holds the resume token's event, so changes may be lost. */
const historyLostCode = 286;

/**
 * The document-database change-stream provider: opens a change stream on the capture's collection after the
 * stored resume token (or, the first time, at the stream's start, whose post-batch resume token becomes the
 * first checkpoint), reads up to a batch of events and inserts them into the outbox collection with the `_id`
 * `<captureId>:<token>`, unordered, so an event staged twice stays one document (duplicate-key errors are
 * expected and counted as not produced). Acknowledgement is provider-native: the resume token is the
 * checkpoint the pump makes durable. A token the server's oplog has already dropped (286
 * ChangeStreamHistoryLost) is a gap (`CDC_GAP_RESUME_TOKEN_LOST`): the capture stops until an operator
 * accepts it (the stream then opens from now). It needs a replica set or sharded cluster (a standalone
 * server refuses change streams).
 */
export class MongoChangeStreamProvider implements CdcPollingProvider {
  readonly provider = 'mongodb';
  readonly acknowledgerServiceType = 'document-database-resume-token';
  private readonly client: MongoClient;
  private readonly telemetry: DatabaseClientTelemetry;
  /** Accepting a gap opens the stream from now; there is no snapshot of a collection. */
  readonly restarts: readonly CaptureRestart[] = ['accept-gap'];

  constructor(private readonly options: MongoChangeStreamProviderOptions) {
    this.client = new MongoClient(options.connectionString, {
      serverSelectionTimeoutMS: options.timeoutMilliseconds,
      connectTimeoutMS: options.timeoutMilliseconds,
      maxPoolSize: 2,
    });
    // `server.address`/`server.port` from a single-host URL (a seed list or mongodb+srv names none); the
    // database is per capture, so each operation gives its own `db.namespace`.
    const { namespace: _database, ...target } = databaseTargetOfUrl('mongodb', options.connectionString, {
      port: 27017,
    });
    this.telemetry = new DatabaseClientTelemetry(target);
  }

  /**
   * Measures from now on (the pump host calls it with the engine's meter and tracer): the change-stream read
   * of a batch as one `aggregate {collection}` operation (the `$changeStream` aggregate and the `getMore`s that
   * fill the batch) and the outbox write as one `insert {outbox collection}`.
   */
  useTelemetry(telemetry: PackTelemetry): void {
    this.telemetry.use(telemetry);
  }

  async stageBatch(request: {
    capture: CdcCaptureDescriptor;
    checkpoint: string | null;
    batchSize: number;
  }): Promise<StagedBatch> {
    const { database, collection } = collectionOf(request.capture, this.options.defaultDatabase);
    const events: ChangeStreamDocument<Document>[] = [];
    let token: unknown = null;
    try {
      const resumeAfter = request.checkpoint === null ? undefined : BSON.EJSON.parse(request.checkpoint);
      token = await this.telemetry.operation(
        { name: 'aggregate', collection, namespace: database },
        async () => {
          const stream = this.client
            .db(database)
            .collection(collection)
            .watch([], { batchSize: request.batchSize, ...(resumeAfter ? { resumeAfter } : {}) });
          try {
            while (events.length < request.batchSize) {
              const event = await stream.tryNext();
              if (event === null) break;
              events.push(event);
            }
            return events.length > 0 ? events.at(-1)!._id : stream.resumeToken;
          } finally {
            await stream.close().catch(() => undefined);
          }
        },
      );
    } catch (error) {
      throw classify(error, `${database}.${collection}`);
    }
    const checkpoint =
      token === null || token === undefined ? request.checkpoint : BSON.EJSON.stringify(token as Document);
    if (events.length === 0) {
      return {
        capturedChangeCount: 0,
        producedMessageCount: 0,
        lastChangeId: null,
        nextCheckpoint: checkpoint,
        lagSeconds: null,
      };
    }
    const produced = await this.stage(request.capture, database, events);
    const newest = events.at(-1) as { wallTime?: Date };
    return {
      capturedChangeCount: events.length,
      producedMessageCount: produced,
      lastChangeId: tokenText(events.at(-1)!._id),
      nextCheckpoint: checkpoint,
      lagSeconds:
        newest.wallTime instanceof Date ? Math.max(0, (Date.now() - newest.wallTime.getTime()) / 1000) : null,
    };
  }

  private async stage(
    capture: CdcCaptureDescriptor,
    database: string,
    events: ChangeStreamDocument<Document>[],
  ) {
    const documents = events.map((event) => ({
      _id: `${capture.id}:${tokenText(event._id)}`,
      cdcCaptureId: capture.id,
      changeId: tokenText(event._id),
      operationType: event.operationType,
      eventFormat: capture.eventFormat,
      payload:
        ('fullDocument' in event ? event.fullDocument : null) ??
        ('documentKey' in event ? event.documentKey : null),
      stagedAt: new Date(),
    }));
    try {
      const result = await this.telemetry.operation(
        { name: 'insert', collection: this.options.outboxCollection, namespace: database },
        () =>
          this.client
            .db(database)
            .collection(this.options.outboxCollection)
            .insertMany(documents as never[], { ordered: false }),
      );
      return result.insertedCount;
    } catch (error) {
      if (error instanceof MongoBulkWriteError) {
        const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
        if (errors.every((item) => item.code === 11000)) return error.result.insertedCount;
      }
      throw classify(error, `${database}.${this.options.outboxCollection}`, 'staging');
    }
  }

  async acknowledge(): Promise<void> {
    // Provider-native: the resume token is the acknowledgement; the pump makes it durable next.
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

function tokenText(token: unknown): string {
  const data = (token as { _data?: unknown } | null)?._data;
  return typeof data === 'string' ? data : BSON.EJSON.stringify(token as Document);
}

function classify(
  error: unknown,
  namespace: string,
  fallback: 'provider' | 'staging' = 'provider',
): CdcProviderError {
  const code = (error as { code?: unknown })?.code;
  const message = (error instanceof Error ? error.message : String(error)).replace(
    /mongodb(\+srv)?:\/\/\S+/gi,
    '<connection>',
  );
  if (code === historyLostCode) {
    return new CdcProviderError(
      'gap',
      'CDC_GAP_RESUME_TOKEN_LOST',
      `the oplog no longer holds the resume point of the change stream on ${namespace} (286 ChangeStreamHistoryLost): the changes after it cannot be read`,
    );
  }
  if (typeof code === 'number' && sourceCodes.has(code)) {
    return new CdcProviderError(
      'source',
      'CDC_SOURCE_UNAVAILABLE',
      `change stream on ${namespace} unavailable (${code}): ${message}`.slice(0, 500),
    );
  }
  if (typeof code === 'number' && fallback === 'staging') {
    return new CdcProviderError(
      'staging',
      'CDC_STAGING_FAILED',
      `staging into ${namespace} failed (${code}): ${message}`.slice(0, 500),
    );
  }
  return new CdcProviderError(
    'provider',
    'CDC_PROVIDER_UNAVAILABLE',
    `document database unavailable: ${message}`.slice(0, 500),
  );
}
