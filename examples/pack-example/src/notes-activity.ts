import type { EngineBuilder, PackCounter } from '@corekit/abstractions';
import { notesEventIds } from './notes-event-ids';

type Change = 'created' | 'deleted' | 'expired';

/**
 * Where one notes change is told: a runtime-story entry (kind `notes`), a runtime event (`notes.<change>`,
 * pushed to SSE and WebSocket clients), a counter and a log record with the pack's event id. Only topic and
 * note ids are told, never the note's text.
 */
export class NotesActivity {
  private readonly counters: Readonly<Record<Change, PackCounter>>;

  constructor(private readonly builder: EngineBuilder) {
    const meter = builder.meter;
    this.counters = {
      created: meter.counter('corekit.example.notes.created', 'notes created, by topic'),
      deleted: meter.counter('corekit.example.notes.deleted', 'notes deleted by a caller, by topic'),
      expired: meter.counter('corekit.example.notes.expired', 'notes deleted by the expiry job'),
    };
  }

  noteChanged(change: 'created' | 'deleted', topic: string, noteId: string): void {
    this.builder.story.record({
      kind: 'notes',
      subjectId: topic,
      transition: `note-${change}`,
      message: `Note ${noteId} ${change} in topic ${topic}`,
      details: { noteId },
    });
    this.builder.events.publish({ type: `notes.note-${change}`, subjectId: topic, data: { noteId } });
    this.counters[change].add(1, { topic });
    this.builder.logger.log({
      level: 'info',
      eventId: change === 'created' ? notesEventIds.noteCreated : notesEventIds.noteDeleted,
      category: 'notes',
      message: `Note ${noteId} ${change} in topic ${topic}`,
    });
  }

  expired(count: number, runId: string): void {
    if (count === 0) return;
    this.builder.story.record({
      kind: 'notes',
      subjectId: null,
      transition: 'expired',
      message: `The expiry job deleted ${count} note(s) older than Engine:Notes:Retention`,
      details: { count, runId },
    });
    this.builder.events.publish({ type: 'notes.expired', subjectId: null, data: { count } });
    this.counters.expired.add(count);
    this.builder.logger.log({
      level: 'info',
      eventId: notesEventIds.notesExpired,
      category: 'notes',
      message: `Deleted ${count} expired note(s)`,
    });
  }
}
