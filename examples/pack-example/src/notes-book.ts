import { createHmac, randomUUID } from 'node:crypto';
import {
  CoreError,
  defineExtensionKey,
  OperationError,
  storeErrorCodes,
  type KeyedStore,
  type StoredRecord,
} from '@corekit/abstractions';
import type { NotesOptions, NotesTopic } from './notes-options';

/** One note as the store keeps it (JSON, so it survives the file store). */
export interface StoredNote {
  readonly topic: string;
  readonly text: string;
  readonly createdAtUtc: string;
}

/** One note as operations answer it. */
export interface NoteView extends StoredNote {
  readonly id: string;
  /** The store version: pass it back as `expectedVersion` to delete exactly this note. */
  readonly version: number;
  /** HMAC-SHA256 of `topic\nid\ntext` with `Engine:Notes:SigningKey`, hex; null when no key is configured. */
  readonly signature: string | null;
}

/**
 * What the notes pack offers other packages (`engine.resolve(notesKey)`): read access to the topics and the
 * notes, nothing that writes. Exported so a consumer needs no cast and no string.
 */
export interface NotesReader {
  topics(): readonly NotesTopic[];
  /** Notes of one topic, oldest key first. */
  list(topic: string, limit?: number): Promise<readonly NoteView[]>;
  /** Number of notes across every topic. */
  count(): Promise<number>;
}

/** The typed key under which `addNotesPack` provides its NotesReader. */
export const notesKey = defineExtensionKey<NotesReader>(
  '@corekit/example-pack/notes',
  'read access to the notes kept by the notes pack',
);

/** The notes of every topic over one keyed store (`<topic>/<noteId>` keys). */
export class NotesBook implements NotesReader {
  private readonly byId: ReadonlyMap<string, NotesTopic>;

  constructor(
    private readonly settings: NotesOptions,
    readonly store: KeyedStore<StoredNote>,
    private readonly now: () => Date,
  ) {
    this.byId = new Map(settings.Topics.map((topic) => [topic.Id, topic]));
  }

  topics(): readonly NotesTopic[] {
    return this.settings.Topics;
  }

  /** The topic, or OperationError not-found naming the configured ones. */
  topic(id: string): NotesTopic {
    const topic = this.byId.get(id);
    if (!topic) {
      throw new OperationError(
        'not-found',
        'NOTES_TOPIC_NOT_FOUND',
        `No topic "${id}"; GET /engine/note-topics lists them`,
        {
          topic: id,
        },
      );
    }
    return topic;
  }

  async list(topic: string, limit?: number): Promise<readonly NoteView[]> {
    this.topic(topic);
    const records = await this.store.list({ prefix: `${topic}/`, limit });
    return records.map((record) => this.view(record));
  }

  async get(topic: string, id: string): Promise<NoteView> {
    this.topic(topic);
    const record = await this.store.get(`${topic}/${id}`);
    if (!record) throw noteNotFound(topic, id);
    return this.view(record);
  }

  count(): Promise<number> {
    return this.store.count();
  }

  /**
   * Adds a note. With an `id` the write is a compare-and-set on "absent" (expectedVersion 0): a second create
   * with the same id answers conflict instead of overwriting. A full store also answers conflict.
   */
  async create(topicId: string, text: string, id: string = randomUUID()): Promise<NoteView> {
    const topic = this.topic(topicId);
    if (topic.ReadOnly) {
      throw new OperationError('conflict', 'NOTES_TOPIC_READ_ONLY', `Topic "${topicId}" is read-only`, {
        topic: topicId,
      });
    }
    const note: StoredNote = { topic: topicId, text, createdAtUtc: this.now().toISOString() };
    let result;
    try {
      result = await this.store.put(`${topicId}/${id}`, note, { expectedVersion: 0 });
    } catch (error) {
      if (error instanceof CoreError && error.code === storeErrorCodes.full) {
        throw new OperationError(
          'conflict',
          'NOTES_FULL',
          `The notes store holds Engine:Notes:MaxNotes notes already`,
        );
      }
      throw error;
    }
    if (!result.written) {
      throw new OperationError(
        'conflict',
        'NOTE_ALREADY_EXISTS',
        `Note "${id}" already exists in topic "${topicId}"`,
        {
          topic: topicId,
          id,
          currentVersion: result.current?.version ?? null,
        },
      );
    }
    return this.view(result.record);
  }

  /**
   * Deletes a note; with `expectedVersion` only when the note still holds that version (compare-and-set):
   * a note changed or re-created since the caller read it answers conflict.
   */
  async delete(topic: string, id: string, expectedVersion?: number): Promise<void> {
    this.topic(topic);
    const key = `${topic}/${id}`;
    const deleted = await this.store.delete(key, expectedVersion === undefined ? {} : { expectedVersion });
    if (deleted) return;
    const current = await this.store.get(key);
    if (!current) throw noteNotFound(topic, id);
    throw new OperationError(
      'conflict',
      'NOTE_VERSION_CONFLICT',
      `Note "${id}" is at version ${current.version}, not ${expectedVersion}`,
      { topic, id, currentVersion: current.version },
    );
  }

  private view(record: StoredRecord<StoredNote>): NoteView {
    const id = record.key.slice(record.value.topic.length + 1);
    const key = this.settings.SigningKey;
    const signature = key
      ? createHmac('sha256', key).update(`${record.value.topic}\n${id}\n${record.value.text}`).digest('hex')
      : null;
    return { id, version: record.version, ...record.value, signature };
  }
}

function noteNotFound(topic: string, id: string): OperationError {
  return new OperationError('not-found', 'NOTE_NOT_FOUND', `Topic "${topic}" has no note "${id}"`, {
    topic,
    id,
  });
}
