import {
  defineOperation,
  identifierSchema,
  OperationError,
  type JobHandle,
  type OperationDefinition,
} from '@corekit/abstractions';
import { z } from 'zod';
import type { NotesActivity } from './notes-activity';
import type { NotesBook } from './notes-book';
import type { NotesOptions } from './notes-options';

/** Named policies the host's `authorize` hook is asked for. */
export const notesPolicies = {
  /** Creating notes. */
  write: 'notes.write',
  /** Deleting notes and running the expiry job by hand. */
  admin: 'notes.admin',
} as const;

export const noteSchema = z.object({
  id: z.string(),
  topic: z.string(),
  text: z.string(),
  version: z.number().int(),
  createdAtUtc: z.string(),
  signature: z.string().nullable(),
});

export const expiryRunSchema = z.object({
  status: z.literal('completed'),
  runId: z.string(),
  expired: z.number().int(),
});

/** What one expiry run answers. */
export interface ExpiryResult {
  readonly expired: number;
}

const topicParams = z.object({ topic: identifierSchema });
const noteParams = z.object({ topic: identifierSchema, noteId: identifierSchema });
const tags = ['Notes'];

/** The pack's operations; the web host mounts them, tests and the worker host invoke them in process. */
export function notesOperations(
  settings: NotesOptions,
  book: NotesBook,
  activity: NotesActivity,
  expiry: JobHandle<ExpiryResult>,
): OperationDefinition<any, any, any, any>[] {
  return [
    defineOperation({
      id: 'notes.create',
      method: 'POST',
      path: '/engine/notes/:topic',
      summary: 'Add a note to a topic',
      description:
        'With an `id` in the body, a second create with the same id answers 409 instead of overwriting.',
      tags,
      params: topicParams,
      body: z.object({ id: identifierSchema.optional(), text: z.string().trim().min(1).max(1000) }).strict(),
      result: noteSchema,
      successStatus: 201,
      authorization: { mode: 'required', policy: notesPolicies.write },
      maxBodyBytes: settings.MaxBodyBytes,
      errors: {
        'invalid-input': 'the body is not { id?, text } or the text is empty or longer than 1000 characters',
        'not-found': 'the topic is not configured (NOTES_TOPIC_NOT_FOUND)',
        conflict:
          'a note with this id exists (NOTE_ALREADY_EXISTS), the topic is read-only or the store is full',
        'too-large': 'the body is larger than Engine:Notes:MaxBodyBytes',
      },
      handler: async ({ params, body }) => {
        const note = await book.create(params.topic, body.text, body.id);
        activity.noteChanged('created', note.topic, note.id);
        return note;
      },
    }),
    defineOperation({
      id: 'notes.list',
      method: 'GET',
      path: '/engine/notes/:topic',
      summary: 'List the notes of a topic',
      tags,
      params: topicParams,
      query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(100) }).strict(),
      result: z.object({ topic: z.string(), notes: z.array(noteSchema) }),
      errors: { 'not-found': 'the topic is not configured', 'invalid-input': 'limit is not 1-100' },
      handler: async ({ params, query }) => ({
        topic: params.topic,
        notes: [...(await book.list(params.topic, query.limit))],
      }),
    }),
    defineOperation({
      id: 'notes.get',
      method: 'GET',
      path: '/engine/notes/:topic/:noteId',
      summary: 'One note',
      tags,
      params: noteParams,
      result: noteSchema,
      errors: { 'not-found': 'no such topic or note (NOTE_NOT_FOUND)' },
      handler: ({ params }) => book.get(params.topic, params.noteId),
    }),
    defineOperation({
      id: 'notes.delete',
      method: 'DELETE',
      path: '/engine/notes/:topic/:noteId',
      summary: 'Delete a note, optionally only at the version the caller read',
      tags,
      params: noteParams,
      query: z.object({ expectedVersion: z.coerce.number().int().min(1).optional() }).strict(),
      result: z.object({ deleted: z.literal(true), topic: z.string(), id: z.string() }),
      authorization: { mode: 'required', policy: notesPolicies.admin },
      errors: {
        'not-found': 'no such topic or note',
        conflict: 'the note is no longer at expectedVersion (NOTE_VERSION_CONFLICT)',
      },
      handler: async ({ params, query }) => {
        await book.delete(params.topic, params.noteId, query.expectedVersion);
        activity.noteChanged('deleted', params.topic, params.noteId);
        return { deleted: true as const, topic: params.topic, id: params.noteId };
      },
    }),
    defineOperation({
      id: 'notes.run-expiry',
      method: 'POST',
      path: '/engine/notes-expiry/runs',
      summary: 'Run the expiry job now',
      tags,
      result: expiryRunSchema,
      successStatus: 200,
      authorization: { mode: 'required', policy: notesPolicies.admin },
      errors: { conflict: 'a run is in progress (NOTES_EXPIRY_ALREADY_RUNNING)' },
      handler: async () => {
        const outcome = await expiry.trigger();
        switch (outcome.status) {
          case 'completed':
            return { status: 'completed' as const, runId: outcome.runId, expired: outcome.result.expired };
          case 'already-running':
            throw new OperationError(
              'conflict',
              'NOTES_EXPIRY_ALREADY_RUNNING',
              'An expiry run is in progress',
              {
                runningRunId: outcome.runningRunId,
              },
            );
          case 'not-running':
            throw new OperationError('unavailable', 'NOTES_EXPIRY_NOT_RUNNING', outcome.reason);
          default:
            // A server error: the host answers 500 without the message; the job's failure is in the story.
            throw new Error(`Expiry run ${outcome.runId} failed: ${outcome.error}`);
        }
      },
    }),
  ];
}
