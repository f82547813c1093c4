import { type EngineBuilder, type TechnologySurface } from '@corekit/abstractions';
import { NotesActivity } from './notes-activity';
import { NotesBook, notesKey, type NotesReader, type StoredNote } from './notes-book';
import { noteTopicEntry, noteTopicsCatalog } from './notes-catalog';
import { notesEventIdNames, notesEventIdRange, notesEventIds } from './notes-event-ids';
import { notesExpiryJob } from './notes-expiry-job';
import { notesOperations } from './notes-operations';
import {
  notesOptionsSchema,
  notesSectionPath,
  type NotesOptions,
  type NotesOptionsInput,
} from './notes-options';

/** Registration key of `addNotesPack` (a second call is refused). */
export const notesRegistrationKey = '@corekit/example-pack';

/** Code-only options: what cannot live in configuration. */
export interface NotesExtensions {
  /** Source of "now" for note timestamps and expiry. Default: the system clock. */
  readonly now?: () => Date;
}

/**
 * Registers the notes pack: binds `Notes` (code options win, unknown keys fail, `SigningKey` is redacted),
 * the `note-topics` catalog, five operations, the `notes` store, the `notes.expire` job, event ids
 * 3300-3309, the `corekit.example.notes.*` counters, lifecycle hooks, the `notes` technology surface, and
 * provides a NotesReader under `notesKey`. Returns the reader.
 */
export function addNotesPack(
  builder: EngineBuilder,
  options?: NotesOptionsInput,
  extensions: NotesExtensions = {},
): NotesReader {
  builder.claimRegistration({ packageName: notesRegistrationKey, entry: 'addNotesPack' });
  builder.declarePack({ packageName: '@corekit/example-pack', specificationVersion: 1 });
  const settings = builder.configuration.bind(notesSectionPath, notesOptionsSchema, options) as NotesOptions;
  const now = extensions.now ?? (() => new Date());

  const store = builder.openStore<StoredNote>('notes', { maxEntries: settings.MaxNotes });
  const book = new NotesBook(settings, store, now);
  const activity = new NotesActivity(builder);
  const expiry = builder.addJob(notesExpiryJob(settings, book, activity, now, builder.logger));

  builder.addCatalog(noteTopicsCatalog);
  builder.addCatalogEntries(noteTopicsCatalog.id, null, settings.Topics.map(noteTopicEntry));
  for (const operation of notesOperations(settings, book, activity, expiry)) builder.addOperation(operation);
  builder.addEventIds({
    component: 'Example notes pack',
    ranges: [notesEventIdRange],
    names: notesEventIdNames,
  });
  builder.provide(notesKey, book);
  builder.addTechnologySurfaces(() => [notesSurface(settings, expiry.state().lastCompletedAtUtc)]);
  if (settings.Topics.length === 0) {
    builder.addWarning({
      code: 'NOTES_NO_TOPICS',
      message:
        'The notes pack has no topic: every notes route answers 404 until Engine:Notes:Topics lists one',
      keyPath: `${notesSectionPath}:Topics`,
      eventId: notesEventIds.configured,
    });
  }
  builder.addLifecycleHooks({
    id: 'notes',
    build: ({ moduleIds }) =>
      settings.Topics.flatMap((topic, index) =>
        topic.Module && !moduleIds.has(topic.Module)
          ? [
              `${notesSectionPath}:Topics:${index}:Module names module "${topic.Module}", which is not registered` +
                ` (registered: ${[...moduleIds].join(', ') || 'none'})`,
            ]
          : [],
      ),
    started: async () => {
      builder.logger.log({
        level: 'info',
        eventId: notesEventIds.started,
        category: 'notes',
        message: `Notes pack started: ${settings.Topics.length} topic(s), ${await store.count()} note(s) kept`,
      });
      // The effective section, for support. SigningKey was bound with secretString(), so the logger prints
      // it as *** (the binder registered it); a pack still never logs a secret on purpose.
      builder.logger.log({
        level: 'debug',
        eventId: notesEventIds.started,
        category: 'notes',
        message: 'Notes pack settings',
        settings,
      });
    },
    stopping: () => {
      builder.events.publish({ type: 'notes.stopping', subjectId: null, data: {} });
      builder.logger.log({
        level: 'info',
        eventId: notesEventIds.stopping,
        category: 'notes',
        message: 'Notes pack stopping: the expiry job is stopped next',
      });
    },
  });
  builder.logger.log({
    level: 'info',
    eventId: notesEventIds.configured,
    category: 'notes',
    message: `Notes pack configured: ${settings.Topics.length} topic(s), signing ${settings.SigningKey ? 'on' : 'off'}`,
  });
  return book;
}

function notesSurface(settings: NotesOptions, lastExpiryAtUtc: string | null): TechnologySurface {
  return {
    id: 'notes',
    kind: 'example-pack',
    displayName: 'Notes',
    sourcePackage: '@corekit/example-pack',
    metadata: {
      topics: settings.Topics.length,
      signing: settings.SigningKey !== undefined,
      maxNotes: settings.MaxNotes,
      retentionMs: settings.Retention,
      lastExpiryAtUtc,
    },
  };
}
