import type { JobDefinition, Logger } from '@corekit/abstractions';
import type { NotesActivity } from './notes-activity';
import type { NotesBook } from './notes-book';
import type { ExpiryResult } from './notes-operations';
import type { NotesOptions } from './notes-options';
import { notesEventIds } from './notes-event-ids';

/**
 * The expiry job: deletes notes older than `Engine:Notes:Retention`, once at startup and every
 * `Engine:Notes:ExpiryInterval` after the end of the previous run. Each delete is a compare-and-set on the version
 * it read, so a note re-created with the same id during the run is kept. The scheduler never runs it twice
 * at once; a manual trigger during a run answers `already-running`.
 */
export function notesExpiryJob(
  settings: NotesOptions,
  book: NotesBook,
  activity: NotesActivity,
  now: () => Date,
  logger: Logger,
): JobDefinition<ExpiryResult> {
  return {
    id: 'notes.expire',
    displayName: 'Expire old notes',
    owner: 'notes',
    intervalMs: settings.ExpiryInterval,
    runOnStartup: true,
    async run({ signal, runId }) {
      const cutoff = now().getTime() - settings.Retention;
      let expired = 0;
      for (const record of await book.store.list()) {
        if (signal.aborted) break;
        if (Date.parse(record.value.createdAtUtc) > cutoff) continue;
        if (await book.store.delete(record.key, { expectedVersion: record.version })) expired += 1;
      }
      activity.expired(expired, runId);
      logger.log({
        level: 'debug',
        eventId: notesEventIds.notesExpired,
        category: 'notes',
        message: `Expiry run ${runId} deleted ${expired} note(s)`,
      });
      return { expired };
    },
  };
}
