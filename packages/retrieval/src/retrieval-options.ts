import { identifierSchema } from '@corekit/abstractions';
import { z } from 'zod';

/** The configuration section `addRetrieval` binds (code options win over it). */
export const retrievalSectionPath = 'Engine:Retrieval';

/**
 * `Engine:Retrieval`, named as the spec's `RetrievalOptions`. Ingestion (indexing) and querying can be
 * switched off separately; a switched-off surface answers 404 not-active. Background reindexing is opt-in and
 * only registered while ingestion is enabled.
 */
export const retrievalOptionsSchema = z
  .object({
    /** Serve `POST /engine/knowledge-indexes/{collectionId}/reindex` (and allow background reindexing). Default true. */
    EnableIngestion: z.boolean().default(true),
    /** Serve `POST /engine/knowledge-indexes/{collectionId}/queries`. Default true. */
    EnableQuerying: z.boolean().default(true),
    /** Id of the index provider every collection uses. Default `in-process` (the built-in MiniSearch index). */
    Provider: identifierSchema.default('in-process'),
    /** Reindex the collections in scope on the engine's job scheduler. Default false. */
    EnableBackgroundReindexing: z.boolean().default(false),
    /** Collections the background reindexing covers; empty (the default) means every registered collection. */
    BackgroundReindexCollectionIds: z.array(identifierSchema).max(1000).default([]),
    /** Run the background reindexing once right after start. Default true. */
    BackgroundReindexRunOnStartup: z.boolean().default(true),
    /** Wait before the startup run, 0 to 3600000 ms. Default 0. */
    BackgroundReindexStartupDelayMilliseconds: z.number().int().min(0).max(3_600_000).default(0),
    /** Time between the end of one background run and the start of the next, 1000 ms to 1 day. Default 300000 (5 min). */
    BackgroundReindexIntervalMilliseconds: z.number().int().min(1000).max(86_400_000).default(300_000),
    /** `maxResults` of a query that names none, 1 to MaxResultsLimit. Default 10. */
    DefaultMaxResults: z.number().int().min(1).max(1000).default(10),
    /** Largest `maxResults` a query may ask for, 1 to 1000; a larger one answers 400. Default 100. */
    MaxResultsLimit: z.number().int().min(1).max(1000).default(100),
    /** Longest `queryText`, 1 to 10000 characters; a longer one answers 400. Default 1000. */
    MaxQueryLength: z.number().int().min(1).max(10_000).default(1000),
    /** Documents handed to the provider per write, 1 to 10000. Default 500. */
    IndexBatchSize: z.number().int().min(1).max(10_000).default(500),
    /** Highlights per match, 0 to 20 (0 turns them off). Default 3. */
    MaxHighlightsPerMatch: z.number().int().min(0).max(20).default(3),
    /** A collection last indexed longer ago than this is reported `stale`, 1 to 525600 minutes. Default 1440 (a day). */
    StaleAfterMinutes: z.number().int().min(1).max(525_600).default(1440),
    /**
     * With a shared store provider and a shared index (a durable provider), how often this replica reads the
     * reindex leases again, and the whole index states when the store's change feed is off or down, 50 to
     * 60000 ms: another replica's run or query then shows here at most this long (plus one store round trip)
     * later. With the feed connected, index states follow each change (the surface reports the measured bound).
     * A lapsed lease is noticed within this interval. Default 1000.
     */
    SharedStateRefreshMilliseconds: z.number().int().min(50).max(60_000).default(1000),
    /**
     * With a shared index, how long an indexing run holds its collection (renewed every third of it while it
     * runs), 1 to 3600 seconds: a replica that died mid-run has its run taken over by another replica this long
     * after its last renewal. Default 30.
     */
    ReindexLeaseSeconds: z.number().int().min(1).max(3600).default(30),
  })
  .refine((options) => options.DefaultMaxResults <= options.MaxResultsLimit, {
    message: 'DefaultMaxResults must not exceed MaxResultsLimit',
    path: ['DefaultMaxResults'],
  });

/** The bound `Engine:Retrieval` section. */
export type RetrievalOptions = z.output<typeof retrievalOptionsSchema>;
/** What `addRetrieval` accepts in code (every key optional). */
export type RetrievalOptionsInput = z.input<typeof retrievalOptionsSchema>;
