import { secretString } from '@corekit/abstractions';
import { z } from 'zod';

const sqlIdentifier = z
  .string()
  .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier (letters, digits, _; at most 63)');

/** `Engine:Eventing:Outbox:PostgreSql`: where the PostgreSQL outbox lives. */
export const postgresOutboxOptionsSchema = z.object({
  /** `postgres://user:password@host:5432/database`. Required. A secret: never logged. */
  ConnectionString: secretString('PostgreSQL connection string of the outbox database'),
  /** Schema of the outbox table. Default `public`. */
  Schema: sqlIdentifier.default('public'),
  /** Outbox table name. Default `corekit_outbox`. */
  TableName: sqlIdentifier.default('corekit_outbox'),
  /** Create the table and its index at start when missing. Default true. */
  CreateTable: z.boolean().default(true),
  /** Most pool connections the dispatcher and `stage` use (staging in a caller's transaction uses theirs). Default 4; 1 to 100. */
  PoolMax: z.number().int().min(1).max(100).default(4),
  /**
   * How long dispatched rows are kept (for inspection, and so staging a dispatched publication id again is a
   * no-op) before a job deletes them, in minutes. Default 60; 0 deletes a row as soon as it is dispatched.
   */
  DispatchedRetentionMinutes: z.number().int().min(0).max(525_600).default(60),
  /**
   * Commit the dispatcher's claims and settlements synchronously. Default false: they run on their own
   * sessions with `synchronous_commit = off`, so a PostgreSQL crash can forget the last fraction of a second
   * of them and a message is sent again (delivery is at-least-once anyway). Staging is always synchronous.
   */
  SynchronousDispatchCommits: z.boolean().default(false),
});

export type PostgresOutboxOptions = z.output<typeof postgresOutboxOptionsSchema>;
export type PostgresOutboxOptionsInput = z.input<typeof postgresOutboxOptionsSchema>;
