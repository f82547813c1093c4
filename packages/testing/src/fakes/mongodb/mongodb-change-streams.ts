/**
 * Collections and change streams for the MongoDB fake, written from the server manual (change streams, resume
 * tokens, the `aggregate`, `getMore`, `killCursors`, `insert` and `find` command references). Pass
 * `fakeCollections.commands` as the fake server's `commands`.
 *
 * - `insert`: stores documents (an ObjectId `_id` when absent) and appends an `insert` change event per
 *   document; a duplicate `_id` is a write error 11000 (ordered inserts stop there, unordered ones go on).
 * - `find`: top-level equality filters only, every match in `firstBatch` (cursor id 0).
 * - `aggregate` whose first stage is `$changeStream` on a collection: opens a tailable cursor over that
 *   collection's change events after `resumeAfter`/`startAfter` (or after the current end of the log). Every
 *   event carries its resume token as `_id` (`{ _data: <16 hex digits> }`); replies carry
 *   `postBatchResumeToken` (the last event returned, else the log's high-water mark). A token the log never
 *   issued answers code 260 InvalidResumeToken; a token whose event the log no longer holds (`rollLog`, an
 *   oplog that rolled past it) answers code 286 ChangeStreamHistoryLost, as a real server does. Other
 *   pipelines answer code 40324 (unsupported here).
 * - `getMore`: the next events of the cursor, at most `batchSize`; it never waits (no awaitData delay), so an
 *   empty `nextBatch` means "nothing new yet". `killCursors` forgets cursors.
 * What it cannot do: updates, deletes, `$match` after `$changeStream`, `fullDocument` lookups, clusters, oplog
 * truncation by size or time (only `rollLog` drops events).
 */
import { Long, ObjectId, Timestamp, type Document } from 'bson';

interface ChangeEvent {
  readonly sequence: number;
  readonly namespace: string;
  readonly document: Document;
}

interface Cursor {
  readonly namespace: string;
  position: number;
}

/** The in-memory collections, change log and cursors behind the fake's commands. */
export interface MongoDbFakeCollections {
  readonly commands: Readonly<Record<string, (command: Document, database: string) => Document>>;
  /** Documents of one collection, in insertion order. */
  documents(database: string, collection: string): readonly Document[];
  /** Number of change events logged so far (all namespaces). */
  readonly eventCount: number;
  /**
   * Drops every change event logged so far (all namespaces), as an oplog that rolled over: resuming after a
   * token issued before answers 286 ChangeStreamHistoryLost; new events and streams opened from now work.
   */
  rollLog(): void;
}

const tokenOf = (sequence: number) => ({ _data: sequence.toString(16).toUpperCase().padStart(16, '0') });

function positionOf(token: unknown): number | null {
  const data = (token as { _data?: unknown } | null)?._data;
  if (typeof data !== 'string' || !/^[0-9A-F]{16}$/i.test(data)) return null;
  return Number.parseInt(data, 16);
}

function matches(document: Document, filter: Document): boolean {
  return Object.entries(filter).every(
    ([key, value]) => JSON.stringify(document[key]) === JSON.stringify(value),
  );
}

/** Creates empty collections with change streams. */
export function createMongoDbFakeCollections(): MongoDbFakeCollections {
  const collections = new Map<string, Map<string, Document>>();
  const log: ChangeEvent[] = [];
  const cursors = new Map<bigint, Cursor>();
  let nextCursorId = 1000n;
  /** Events at indexes below this were rolled off the log. */
  let rolledBefore = 0;

  const collectionOf = (namespace: string) => {
    let collection = collections.get(namespace);
    if (!collection) collections.set(namespace, (collection = new Map()));
    return collection;
  };

  function eventsAfter(cursor: Cursor, batchSize: number): Document[] {
    const batch: Document[] = [];
    for (
      let index = Math.max(cursor.position, rolledBefore);
      index < log.length && batch.length < batchSize;
      index++
    ) {
      cursor.position = index + 1;
      if (log[index].namespace === cursor.namespace) batch.push(log[index].document);
    }
    if (batch.length < batchSize) cursor.position = log.length;
    return batch;
  }

  const batchSizeOf = (value: unknown) => (typeof value === 'number' && value > 0 ? value : 101);

  function cursorReply(id: bigint, cursor: Cursor, batch: Document[], field: 'firstBatch' | 'nextBatch') {
    const last = batch.at(-1);
    return {
      cursor: {
        [field]: batch,
        postBatchResumeToken: last ? last._id : tokenOf(cursor.position),
        id: Long.fromBigInt(id),
        ns: cursor.namespace,
      },
      ok: 1,
    };
  }

  const commands: Record<string, (command: Document, database: string) => Document> = {
    insert(command, database) {
      const namespace = `${database}.${String(command.insert)}`;
      const collection = collectionOf(namespace);
      const documents = (command.documents as Document[] | undefined) ?? [];
      const ordered = command.ordered !== false;
      const writeErrors: Document[] = [];
      let inserted = 0;
      for (const [index, raw] of documents.entries()) {
        const document = raw._id === undefined ? { _id: new ObjectId(), ...raw } : raw;
        const key = JSON.stringify(document._id);
        if (collection.has(key)) {
          writeErrors.push({
            index,
            code: 11000,
            errmsg: `E11000 duplicate key error collection: ${namespace} index: _id_ dup key: { _id: ${key} }`,
          });
          if (ordered) break;
          continue;
        }
        collection.set(key, document);
        inserted++;
        const sequence = log.length + 1;
        log.push({
          sequence,
          namespace,
          document: {
            _id: tokenOf(sequence),
            operationType: 'insert',
            clusterTime: new Timestamp({ t: Math.floor(Date.now() / 1000), i: sequence }),
            wallTime: new Date(),
            fullDocument: document,
            ns: { db: database, coll: String(command.insert) },
            documentKey: { _id: document._id },
          },
        });
      }
      return { n: inserted, ...(writeErrors.length > 0 ? { writeErrors } : {}), ok: 1 };
    },
    find(command, database) {
      const namespace = `${database}.${String(command.find)}`;
      const filter = (command.filter as Document | undefined) ?? {};
      const all = [...collectionOf(namespace).values()].filter((document) => matches(document, filter));
      const limited =
        typeof command.limit === 'number' && command.limit > 0 ? all.slice(0, command.limit) : all;
      return { cursor: { firstBatch: limited, id: Long.fromNumber(0), ns: namespace }, ok: 1 };
    },
    aggregate(command, database) {
      const pipeline = (command.pipeline as Document[] | undefined) ?? [];
      const stage = pipeline[0]?.$changeStream as Document | undefined;
      if (!stage || typeof command.aggregate !== 'string') {
        return {
          ok: 0,
          errmsg: 'this fake runs only $changeStream pipelines on a collection',
          code: 40324,
          codeName: 'Location40324',
        };
      }
      const token = stage.resumeAfter ?? stage.startAfter;
      let position = log.length;
      if (token !== undefined) {
        const resumed = positionOf(token);
        if (resumed === null || resumed > log.length) {
          return {
            ok: 0,
            errmsg: 'cannot resume stream; the resume token was not found',
            code: 260,
            codeName: 'InvalidResumeToken',
          };
        }
        if (resumed > 0 && resumed <= rolledBefore) {
          return {
            ok: 0,
            errmsg:
              'Resume of change stream was not possible, as the resume point may no longer be in the oplog.',
            code: 286,
            codeName: 'ChangeStreamHistoryLost',
          };
        }
        position = resumed;
      }
      const id = nextCursorId++;
      const cursor: Cursor = { namespace: `${database}.${command.aggregate}`, position };
      cursors.set(id, cursor);
      const batchSize = (command.cursor as Document | undefined)?.batchSize;
      return cursorReply(
        id,
        cursor,
        eventsAfter(cursor, batchSize === 0 ? 0 : batchSizeOf(batchSize)),
        'firstBatch',
      );
    },
    getMore(command) {
      const raw = command.getMore as Long | number | bigint;
      const id = typeof raw === 'bigint' ? raw : BigInt(raw.toString());
      const cursor = cursors.get(id);
      if (!cursor)
        return { ok: 0, errmsg: `cursor id ${id} not found`, code: 43, codeName: 'CursorNotFound' };
      return cursorReply(id, cursor, eventsAfter(cursor, batchSizeOf(command.batchSize)), 'nextBatch');
    },
    killCursors(command) {
      const killed = ((command.cursors as unknown[]) ?? []).map((raw) => BigInt(String(raw)));
      for (const id of killed) cursors.delete(id);
      return {
        cursorsKilled: killed.map((id) => Long.fromBigInt(id)),
        cursorsNotFound: [],
        cursorsAlive: [],
        cursorsUnknown: [],
        ok: 1,
      };
    },
  };

  return {
    commands,
    documents: (database, collection) => [...collectionOf(`${database}.${collection}`).values()],
    get eventCount() {
      return log.length;
    },
    rollLog() {
      rolledBefore = log.length;
    },
  };
}
