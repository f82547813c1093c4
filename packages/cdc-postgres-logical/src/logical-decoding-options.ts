import { secretString } from '@corekit/abstractions';
import { z } from 'zod';

/**
 * Section `Engine:LogicalDecoding:PostgreSql`: the logical-decoding capture provider (capture provider
 * `postgresql-logical`, run by the shared capture pump of `@corekit/data`).
 */
export const postgresLogicalDecodingOptionsSchema = z.strictObject({
  /**
   * PostgreSQL the captures decode from (`wal_level = logical`; a role with REPLICATION, and CREATE on the
   * database when the provider creates the publications). The outbox table lives in the same database.
   */
  ConnectionString: secretString('PostgreSQL connection string of the logical-decoding provider'),
  /** Outbox table the changes are staged into (created when absent), the polling pump's layout. */
  OutboxTable: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/)
    .default('corekit_cdc_outbox'),
  /** Changes held in memory per capture before the stream is paused (server-side backpressure). Default 10,000. */
  MaxBufferedChanges: z.number().int().min(1).max(1_000_000).default(10_000),
  /**
   * What a new capture (and a re-snapshot) reads first: `initial` reads the rows the table holds in the
   * snapshot exported when its slot is made, in primary-key chunks of the pump's BatchSize, then streams from
   * that slot; `never` streams only what commits after the slot is made. A capture's `metadata.snapshotMode`
   * overrides it. Default `initial`.
   */
  SnapshotMode: z.enum(['initial', 'never']).default('initial'),
  /**
   * A statement run on the source database while a capture's stream has nothing pending, at most every
   * HeartbeatIntervalMilliseconds (Debezium's `heartbeat.action.query`): on a server where the captured
   * database writes nothing, it makes WAL there so keepalives move and the slot confirms. Write to a table of
   * your own outside the publication (`INSERT INTO corekit_heartbeat VALUES (now())`). Default none.
   */
  HeartbeatQuery: z.string().min(1).max(2000).optional(),
  /** Least milliseconds between two heartbeat statements. Default 60,000; 100 to 3,600,000. */
  HeartbeatIntervalMilliseconds: z.number().int().min(100).max(3_600_000).default(60_000),
  /** Connection and statement timeout in milliseconds. Default 10,000. */
  TimeoutMilliseconds: z.number().int().min(100).max(600_000).default(10_000),
});

export type PostgresLogicalDecodingOptions = z.output<typeof postgresLogicalDecodingOptionsSchema>;
export type PostgresLogicalDecodingOptionsInput = z.input<typeof postgresLogicalDecodingOptionsSchema>;
