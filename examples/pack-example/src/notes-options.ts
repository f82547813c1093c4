import { durationSchema, identifierSchema, secretString } from '@corekit/abstractions';
import { z } from 'zod';

/**
 * The configuration section `addNotesPack` binds. Under `Engine:`, so the engine refuses a misspelled key
 * there (naming the closest known one) when the engine is built.
 */
export const notesSectionPath = 'Engine:Notes';

/** One topic notes can be kept under. */
export const notesTopicOptionsSchema = z.object({
  /** The topic id, the `:topic` of every notes route. */
  Id: identifierSchema,
  /** The module that owns the topic; checked against the registered modules when the engine is built. */
  Module: identifierSchema.optional(),
  /** One line for people. */
  Description: z.string().max(200).default(''),
  /** A read-only topic lists its notes but refuses new ones (listed by the `read-only` view). Default false. */
  ReadOnly: z.boolean().default(false),
});

/**
 * `Engine:Notes`. Every key has a default except the topics, which may be empty (a registration warning says so).
 * Durations take a unit (`30s`, `7d`).
 */
export const notesOptionsSchema = z.object({
  /** Topics notes can be kept under. Default none. */
  Topics: z.array(notesTopicOptionsSchema).max(100).default([]),
  /**
   * Key of the HMAC-SHA256 signature every note answer carries (`signature`), so a webhook receiver can
   * check a forwarded note. A secret: bound through `secretString()`, so it is redacted from every log.
   * Optional; without it answers carry no signature.
   */
  SigningKey: secretString('HMAC key signing note answers; supply it from the environment').optional(),
  /** Largest accepted request body of the create operation, in bytes (1024-65536). Default 4096. */
  MaxBodyBytes: z.number().int().min(1024).max(65_536).default(4096),
  /** Most notes kept across all topics (the store's bound; a create beyond it answers 409). Default 1000. */
  MaxNotes: z.number().int().min(1).max(100_000).default(1000),
  /** Age after which the expiry job deletes a note. Default 7d. */
  Retention: durationSchema().default((7 * 24 * 3_600_000) as never),
  /** Interval between expiry runs; the job also runs once at startup. Default 1m. */
  ExpiryInterval: durationSchema().default(60_000 as never),
});

/** What `addNotesPack` accepts in code (PascalCase keys, same as the section). */
export type NotesOptionsInput = z.input<typeof notesOptionsSchema>;

/** The bound section; durations are milliseconds. */
export interface NotesOptions {
  readonly Topics: ReadonlyArray<z.output<typeof notesTopicOptionsSchema>>;
  readonly SigningKey?: string;
  readonly MaxBodyBytes: number;
  readonly MaxNotes: number;
  readonly Retention: number;
  readonly ExpiryInterval: number;
}

export type NotesTopic = NotesOptions['Topics'][number];
