import { z } from 'zod';

/** The configuration section `addConsole` binds (code options win over it). */
export const consoleSectionPath = 'Engine:Console';

/**
 * `Engine:Console`. The console is served under `/engine/console` with the exposure of every `/engine` route
 * (the web host's `Engine:Web:EngineRoutes`); nothing here opens it wider.
 */
export const consoleOptionsSchema = z.object({
  /** Serve the console and record dependency history. False registers nothing. Default true. */
  Enabled: z.boolean().default(true),
  /** Title of the page and its heading, 1 to 80 characters. Default `Core console`. */
  Title: z.string().min(1).max(80).default('Core console'),
  /** How long dependency history is kept, 1 to 43200 minutes (30 days). Default 1440 (a day). */
  HistoryRetentionMinutes: z.number().int().min(1).max(43_200).default(1440),
  /**
   * Width of one history bucket (one stored record per dependency and bucket), 10 to 3600 seconds. Default 60.
   * Wider buckets mean fewer records for a long retention.
   */
  HistoryBucketSeconds: z.number().int().min(10).max(3600).default(60),
  /** Most check results kept in one bucket, 1 to 1000; later ones in a full bucket are dropped. Default 120. */
  HistoryMaxSamplesPerBucket: z.number().int().min(1).max(1000).default(120),
  /** Most records of the history store, 100 to 1000000; the oldest bucket is dropped first. Default 50000. */
  HistoryMaxRecords: z.number().int().min(100).max(1_000_000).default(50_000),
});

/** The bound `Engine:Console` section. */
export type ConsoleOptions = z.output<typeof consoleOptionsSchema>;
/** What `addConsole` accepts in code (every key optional). */
export type ConsoleCodeOptions = z.input<typeof consoleOptionsSchema>;
