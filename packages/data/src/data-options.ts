import { secretString } from '@corekit/abstractions';
import { z } from 'zod';

const identifier = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'letters, digits and . _ : - only, starting with a letter or digit')
  .max(200);

/**
 * A CDC execution runtime the host declares (`DataRuntimeOptions.CdcExecutionRuntimes`). Declaring a runtime
 * records who owns which captures; it does not make the engine run anything: such runtimes report progress
 * through `POST /engine/cdc-capture-runtimes/{id}/reports`.
 */
export const cdcExecutionRuntimeOptionsSchema = z.strictObject({
  /** Runtime id, unique among declared and shipped runtimes. */
  Id: identifier,
  /**
   * external-managed (a process the host does not run), provider-native (the provider's own capture, e.g. a
   * managed connector) or edge (runners on declared edge nodes). Sets the default ownership, topology and
   * acknowledgement mode.
   */
  Kind: z.enum(['external-managed', 'provider-native', 'edge']),
  DisplayName: z.string().min(1).max(200).optional(),
  Description: z.string().max(1000).default(''),
  /** Captures this runtime owns; a capture listed by two runtimes fails the build. */
  CdcCaptureIds: z.array(identifier).max(1000).default([]),
  /** Overrides the kind's executionOwnership (external-managed, provider-managed, edge-managed by default). */
  ExecutionOwnership: z.string().min(1).max(100).optional(),
  /** Overrides the kind's executionTopology (external-process, provider-native, edge by default). */
  ExecutionTopology: z.string().min(1).max(100).optional(),
  /** Overrides the kind's acknowledgementMode (external-reported, provider-native, edge-reported by default). */
  AcknowledgementMode: z.string().min(1).max(100).optional(),
  /** How long a reporter's lease lasts after its last accepted report, in seconds. Default 30; 1 to 86,400. */
  ReporterLeaseSeconds: z.number().int().min(1).max(86_400).default(30),
  /**
   * Refuse (409) a report from a second reporter while another reporter holds a live lease on the capture.
   * When false both are accepted and the capture is degraded with multiple-active-reporters. Default true.
   */
  RejectConflictingReporterIds: z.boolean().default(true),
  /** When set, only these reporter ids may report for this runtime (others answer 409). Default: any. */
  ReporterIds: z.array(identifier).max(100).optional(),
  /** Edge nodes of an edge runtime; reports naming another node answer 409. Required for Kind edge. */
  EdgeNodeIds: z.array(identifier).max(1000).default([]),
  /** Free-form descriptive metadata (strings, numbers, booleans), published as is: never put secrets here. */
  Metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
});

/**
 * The shipped shared in-process polling pump (`data-cdc-capture-pump`) and its PostgreSQL provider
 * (`Engine:Data:CapturePump`).
 */
export const capturePumpOptionsSchema = z.strictObject({
  /** Run the pump (hosted execution, graph and job). When false its captures stay declared-only. Default true. */
  Enabled: z.boolean().default(true),
  /** Captures the pump owns in addition to those selected by provider (`postgresql`). */
  CdcCaptureIds: z.array(identifier).max(1000).default([]),
  /** Milliseconds between the end of one pass and the next. Default 1000; 10 to 3,600,000. */
  PollIntervalMilliseconds: z.number().int().min(10).max(3_600_000).default(1000),
  /**
   * After a capture's second consecutive failed pass, milliseconds before it is tried again, doubling per
   * failure up to MaxFailureBackoffMilliseconds (the first failure is retried on the next pass; 0: every
   * pass tries again). Default 1000.
   */
  FailureBackoffMilliseconds: z.number().int().min(0).max(600_000).default(1000),
  /** Longest delay between tries of a failing capture. Default 30,000; 10 to 3,600,000. */
  MaxFailureBackoffMilliseconds: z.number().int().min(0).max(3_600_000).default(30_000),
  /** Most changes one pass reads per capture. Default 500; 1 to 10,000. */
  BatchSize: z.number().int().min(1).max(10_000).default(500),
  /** Passes keep reading a capture while full batches come back, up to this many batches. Default 10; 1 to 1000. */
  MaxBatchesPerPass: z.number().int().min(1).max(1000).default(10),
  /** PostgreSQL connection string of the polling provider. Default: none (postgresql captures then fail truthfully). */
  PostgreSqlConnectionString: secretString(
    'PostgreSQL connection string of the CDC polling provider',
  ).optional(),
  /** Table the provider stages changes into (created when absent). Default `corekit_cdc_outbox`. */
  PostgreSqlOutboxTable: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/, 'a table name, optionally schema-qualified')
    .max(120)
    .default('corekit_cdc_outbox'),
  /**
   * Refuse to run a `postgresql` capture whose table has no xid8 transaction column (failure kind
   * `prerequisite`, naming the ALTER TABLE) instead of running it `not-guaranteed`. A capture's
   * `metadata.requireCompleteness` (true or false) overrides it. Default false.
   */
  RequireCompleteness: z.boolean().default(false),
  /** Milliseconds a provider connection or query may take before the pass fails. Default 10,000; 100 to 600,000. */
  PostgreSqlTimeoutMilliseconds: z.number().int().min(100).max(600_000).default(10_000),
});

/**
 * The shipped document-database change-stream pump (`data-cdc-change-stream-pump`, provider `mongodb`):
 * `Engine:Data:ChangeStreamPump`. Resume tokens are its checkpoints, kept on the runtime-state catalog.
 */
export const changeStreamPumpOptionsSchema = z.strictObject({
  /** Run the pump. When false its captures stay declared-only. Default true. */
  Enabled: z.boolean().default(true),
  /** Captures the pump owns in addition to the `mongodb` ones it serves by default. */
  CdcCaptureIds: z.array(identifier).max(1000).default([]),
  /** Milliseconds between the end of one pass and the next. Default 1000; 10 to 3,600,000. */
  PollIntervalMilliseconds: z.number().int().min(10).max(3_600_000).default(1000),
  /**
   * After a capture's second consecutive failed pass, milliseconds before it is tried again, doubling per
   * failure up to MaxFailureBackoffMilliseconds (the first failure is retried on the next pass; 0: every
   * pass tries again). Default 1000.
   */
  FailureBackoffMilliseconds: z.number().int().min(0).max(600_000).default(1000),
  /** Longest delay between tries of a failing capture. Default 30,000; 10 to 3,600,000. */
  MaxFailureBackoffMilliseconds: z.number().int().min(0).max(3_600_000).default(30_000),
  /** Most change events read per batch. Default 500; 1 to 10,000. */
  BatchSize: z.number().int().min(1).max(10_000).default(500),
  /** Batches read per capture in one pass while they come back full. Default 10; 1 to 1000. */
  MaxBatchesPerPass: z.number().int().min(1).max(1000).default(10),
  /** Connection string (a replica set or sharded cluster: change streams need one). Default none. */
  ConnectionString: secretString('MongoDB connection string of the change-stream pump').optional(),
  /** Database of captures that do not name one in `metadata.database`. Default `test`. */
  Database: z.string().min(1).max(64).default('test'),
  /** Collection the pump stages change events into (same database as the capture). Default `corekit_cdc_outbox`. */
  OutboxCollection: z.string().min(1).max(120).default('corekit_cdc_outbox'),
  /** Milliseconds server selection or one command may take. Default 10,000; 100 to 600,000. */
  TimeoutMilliseconds: z.number().int().min(100).max(600_000).default(10_000),
});

/** The `Engine:Data` section: `DataRuntimeOptions` of the spec. */
export const dataRuntimeOptionsSchema = z.strictObject({
  /** Serve `POST /engine/cdc-capture-runtimes/{id}/reports`. Default false (the route is then not mounted). */
  EnableExternalCdcRuntimeReporting: z.boolean().default(false),
  /** Host-declared runtimes (external-managed, provider-native, edge). Default none. */
  CdcExecutionRuntimes: z.array(cdcExecutionRuntimeOptionsSchema).max(100).default([]),
  /** Most observations one report may carry. Default 100; 1 to 1000. */
  MaxObservationsPerReport: z.number().int().min(1).max(1000).default(100),
  /** A capture whose last observation is older than this is reported with freshness stale. Default 300; 1 to 604,800. */
  StaleAfterSeconds: z.number().int().min(1).max(604_800).default(300),
  /**
   * A capture whose reported lag is above this many seconds is listed in the operator view
   * `cdc-capture-lag` (with the stale and failed ones). Default 60; 1 to 604,800.
   */
  LagAttentionSeconds: z.number().int().min(1).max(604_800).default(60),
  /**
   * A capture whose source holds back more than this many bytes for it (a replication slot's unconfirmed WAL)
   * is listed in the operator view `cdc-capture-lag` and logged (event 3194) when it crosses the bound.
   * Default 1 GiB; 1 MiB to 1 TiB.
   */
  RetentionAttentionBytes: z
    .number()
    .int()
    .min(1024 * 1024)
    .max(1024 ** 4)
    .default(1024 ** 3),
  /**
   * With a shared store provider (PostgreSQL, Redis) whose change feed is off (`Engine:Stores:ChangeFeed:Enabled`
   * false) or down, how often this replica reads the whole capture states (with their checkpoints and reporter
   * coordination) again, in milliseconds: another replica's report shows here at most this long, plus one store
   * round trip, later. With the feed connected each change is read as it is announced (the surfaces report the
   * measured bound). Unused with Memory or File. Default 1000; 50 to 60,000.
   */
  SharedStateRefreshMilliseconds: z.number().int().min(50).max(60_000).default(1000),
  CapturePump: capturePumpOptionsSchema.default(capturePumpOptionsSchema.parse({})),
  ChangeStreamPump: changeStreamPumpOptionsSchema.default(changeStreamPumpOptionsSchema.parse({})),
});

export type DataRuntimeOptions = z.output<typeof dataRuntimeOptionsSchema>;
/** Options as code passes them to `addData` (every key optional). */
export type DataRuntimeOptionsInput = z.input<typeof dataRuntimeOptionsSchema>;
export type CdcExecutionRuntimeOptions = z.output<typeof cdcExecutionRuntimeOptionsSchema>;
