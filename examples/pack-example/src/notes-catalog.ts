import type { CatalogDefinition } from '@corekit/abstractions';
import { z } from 'zod';
import type { NotesTopic } from './notes-options';

/** One entry of `/engine/note-topics`. */
export const noteTopicEntrySchema = z.object({
  id: z.string(),
  module: z.string().nullable(),
  description: z.string(),
  readOnly: z.boolean(),
});
export type NoteTopicEntry = z.infer<typeof noteTopicEntrySchema>;

export function noteTopicEntry(topic: NotesTopic): NoteTopicEntry {
  return {
    id: topic.Id,
    module: topic.Module ?? null,
    description: topic.Description,
    readOnly: topic.ReadOnly,
  };
}

/**
 * The `note-topics` catalog: the list at `/engine/note-topics`, one topic at `/engine/note-topics/{id}`,
 * the topics of one module at `/engine/note-topics/modules/{moduleId}` (a narrowing) and the read-only ones
 * at `/engine/note-topics/read-only` (a view). The web host serves all four with no notes-specific code.
 */
export const noteTopicsCatalog: CatalogDefinition<NoteTopicEntry> = {
  id: 'note-topics',
  displayName: 'Note topics',
  description: 'Topics the notes pack keeps notes under (Engine:Notes:Topics).',
  path: '/engine/note-topics',
  snapshotField: 'noteTopics',
  idField: 'id',
  entrySchema: noteTopicEntrySchema,
  narrowings: [
    {
      segment: 'modules',
      parameter: 'moduleId',
      description: 'the module that owns the topics',
      select: (entry, moduleId) => entry.module === moduleId,
    },
  ],
  views: [
    {
      segment: 'read-only',
      description: 'Topics that list their notes but refuse new ones',
      select: (entry) => entry.readOnly,
    },
  ],
};
