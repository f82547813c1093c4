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
  /**
   * `Engine:Console:Login`: a sign-in page and browser sessions, so a browser reaches the console where the
   * `/engine` routes are guarded (production). The host's `authorize` hook decides each sign-in.
   */
  Login: z
    .object({
      /** Serve `/engine/console/login` and honour session cookies. Default false (turn it on in production). */
      Enabled: z.boolean().default(false),
      /** Longest life of a session from sign-in, 5 to 10080 minutes (a week). Default 480 (8 hours). */
      SessionLifetimeMinutes: z.number().int().min(5).max(10_080).default(480),
      /** A session unused this long ends, 1 to 1440 minutes. Default 30. */
      IdleTimeoutMinutes: z.number().int().min(1).max(1440).default(30),
      /** Most live sessions (the store's bound; a sign-in beyond it is refused, 503). Default 10000. */
      MaxSessions: z.number().int().min(10).max(1_000_000).default(10_000),
      /**
       * Mark the cookie `Secure` (and name it `__Host-corekit-console`). Default true: browsers keep it over https
       * and over plain http on localhost / 127.0.0.1. False only for plain http on another host (a lab).
       */
      SecureCookie: z.boolean().default(true),
    })
    .prefault({}),
  /** `Engine:Console:Audit`: the operator audit (`/engine/operator-audit`). */
  Audit: z
    .object({
      /** How long an entry is kept, 1 to 3650 days. Default 90. */
      RetentionDays: z.number().int().min(1).max(3650).default(90),
      /** Most entries kept, 100 to 100000; the oldest is dropped for a new one. Default 5000. */
      MaxRecords: z.number().int().min(100).max(100_000).default(5000),
    })
    .prefault({}),
});

/** The bound `Engine:Console` section. */
export type ConsoleOptions = z.output<typeof consoleOptionsSchema>;
/** What `addConsole` accepts in code (every key optional). */
export type ConsoleCodeOptions = z.input<typeof consoleOptionsSchema>;
