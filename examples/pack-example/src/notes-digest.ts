import { CoreError, defineOperation, type EngineBuilder } from '@corekit/abstractions';
import { z } from 'zod';
import { notesKey } from './notes-book';

/**
 * A second, tiny consumer of the notes pack, as another package would write it: it reads the pack's
 * NotesReader through the typed key (`builder.resolve(notesKey)`: no string, no cast) and serves
 * `GET /engine/notes-digest`, the number of notes per topic. Register it after `addNotesPack`.
 */
export function addNotesDigest(builder: EngineBuilder): void {
  const notes = builder.resolve(notesKey);
  if (!notes) {
    throw new CoreError('NOTES_DIGEST_NEEDS_NOTES', 'addNotesDigest needs addNotesPack to be called first');
  }
  builder.addOperation(
    defineOperation({
      id: 'notes-digest.get',
      method: 'GET',
      path: '/engine/notes-digest',
      summary: 'Number of notes per topic',
      tags: ['Notes'],
      result: z.object({
        total: z.number().int(),
        topics: z.array(z.object({ topic: z.string(), notes: z.number().int() })),
      }),
      handler: async () => {
        const topics = await Promise.all(
          notes
            .topics()
            .map(async (topic) => ({ topic: topic.Id, notes: (await notes.list(topic.Id)).length })),
        );
        return { total: await notes.count(), topics };
      },
    }),
  );
}
