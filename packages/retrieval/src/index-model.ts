import { identifierSchema } from '@corekit/abstractions';
import { z } from 'zod';

const metadataValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);
/** Safe caller metadata: at most 20 keys of short scalar values. */
export const safeMetadataSchema = z
  .record(z.string().min(1).max(100), metadataValue)
  .refine((value) => Object.keys(value).length <= 20, { message: 'at most 20 metadata keys' });

const optionalId = identifierSchema.optional();

/** Query values of the reindex route; absent ones get generated defaults. */
export const reindexQuerySchema = z
  .object({ runId: optionalId, actorId: optionalId, correlationId: optionalId })
  .strict();
export type ReindexRequest = z.infer<typeof reindexQuerySchema>;

/** The knowledge query request (2.4). `maxResults` bounds are checked against the options (400 outside). */
export const knowledgeQueryRequestSchema = z
  .object({
    queryText: z.string(),
    maxResults: z.number().int().optional(),
    actorId: optionalId,
    correlationId: optionalId,
    metadata: safeMetadataSchema.optional(),
  })
  .strict();
export type KnowledgeQueryRequest = z.infer<typeof knowledgeQueryRequestSchema>;

export const indexingOutcomes = ['succeeded', 'failed', 'already-running'] as const;
export type IndexingOutcome = (typeof indexingOutcomes)[number];

/**
 * Who started an indexing run: the route, the background scheduler, or a replica taking over the run of a
 * replica that died mid-run (its lease ran out).
 */
export const indexingTriggers = ['route', 'retrieval-background-scheduler', 'replica-takeover'] as const;
export type IndexingTrigger = (typeof indexingTriggers)[number];

const errorSummarySchema = z.object({ code: z.string(), message: z.string() });

/** The answer of a reindex (`KnowledgeIndexingResult`). */
export const knowledgeIndexingResultSchema = z.object({
  collectionId: z.string(),
  runId: z.string(),
  outcome: z.enum(indexingOutcomes),
  /** For `already-running`: the run id of the run in progress. */
  runningRunId: z.string().nullable(),
  trigger: z.enum(indexingTriggers),
  providerId: z.string(),
  /** `full` when the index was empty before the run, else `incremental`. */
  mode: z.enum(['full', 'incremental']).nullable(),
  startedAtUtc: z.string(),
  completedAtUtc: z.string().nullable(),
  documentsSeen: z.number().int(),
  documentsIndexed: z.number().int(),
  documentsUnchanged: z.number().int(),
  documentsRemoved: z.number().int(),
  documentsRejected: z.number().int(),
  /** Documents in the index after the run. */
  documentCount: z.number().int(),
  /** Newest source `updatedAt` seen by the run. */
  sourceFreshnessUtc: z.string().nullable(),
  actorId: z.string(),
  correlationId: z.string(),
  error: errorSummarySchema.nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type KnowledgeIndexingResult = z.infer<typeof knowledgeIndexingResultSchema>;

const highlightSchema = z.object({ field: z.string(), snippet: z.string() });

/** One ranked match of a query. */
export const knowledgeMatchSchema = z.object({
  rank: z.number().int(),
  documentId: z.string(),
  score: z.number(),
  highlights: z.array(highlightSchema),
  metadata: z.record(z.string(), metadataValue),
  updatedAtUtc: z.string(),
});

/** The answer of a query (`KnowledgeQueryResult`); the query text itself is not echoed. */
export const knowledgeQueryResultSchema = z.object({
  collectionId: z.string(),
  queryId: z.string(),
  providerId: z.string(),
  queryFingerprint: z.string(),
  queryLength: z.number().int(),
  maxResults: z.number().int(),
  matchedCount: z.number().int(),
  totalMatches: z.number().int(),
  totalIsLowerBound: z.boolean(),
  matches: z.array(knowledgeMatchSchema),
  actorId: z.string(),
  correlationId: z.string(),
  observedAtUtc: z.string(),
});
export type KnowledgeQueryResult = z.infer<typeof knowledgeQueryResultSchema>;

export const freshnessStates = ['unindexed', 'fresh', 'stale', 'failed'] as const;
export type FreshnessState = (typeof freshnessStates)[number];

/** Stored per collection (`knowledge-indexes` store); `freshnessState` is derived on read. */
export const storedIndexStateSchema = z.object({
  collectionId: z.string(),
  sourceModuleId: z.string(),
  providerId: z.string(),
  latestRunId: z.string().nullable(),
  latestOutcome: z.enum(indexingOutcomes).nullable(),
  latestTrigger: z.enum(indexingTriggers).nullable(),
  observedAtUtc: z.string(),
  indexedAtUtc: z.string().nullable(),
  sourceFreshnessUtc: z.string().nullable(),
  documentCount: z.number().int(),
  indexingCounts: z.object({
    started: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    alreadyRunning: z.number().int(),
    documentsIndexed: z.number().int(),
    documentsRemoved: z.number().int(),
  }),
  queryCount: z.number().int(),
  latestQueryAtUtc: z.string().nullable(),
  queryFingerprint: z.string().nullable(),
  queryLength: z.number().int().nullable(),
  matchedCounts: z.object({
    latest: z.number().int().nullable(),
    latestTotal: z.number().int().nullable(),
    total: z.number().int(),
    zeroMatchQueries: z.number().int(),
  }),
  actorId: z.string().nullable(),
  correlationId: z.string().nullable(),
  errorSummary: errorSummarySchema.nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type StoredIndexState = z.infer<typeof storedIndexStateSchema>;

/** Knowledge index state (2.4) as the catalog shows it. */
export const knowledgeIndexStateSchema = storedIndexStateSchema.extend({
  freshnessState: z.enum(freshnessStates),
  /**
   * Who reads this state: `shared` (a shared store provider and an index every replica shares), `node-local`
   * (File), `process-local` (Memory, or an index of this process such as the in-process one).
   */
  scope: z.enum(['shared', 'node-local', 'process-local']),
});
export type KnowledgeIndexState = z.infer<typeof knowledgeIndexStateSchema>;

/** A fresh state for a collection with no activity yet. */
export function emptyIndexState(
  collectionId: string,
  sourceModuleId: string,
  providerId: string,
  observedAtUtc: string,
): StoredIndexState {
  return {
    collectionId,
    sourceModuleId,
    providerId,
    latestRunId: null,
    latestOutcome: null,
    latestTrigger: null,
    observedAtUtc,
    indexedAtUtc: null,
    sourceFreshnessUtc: null,
    documentCount: 0,
    indexingCounts: {
      started: 0,
      succeeded: 0,
      failed: 0,
      alreadyRunning: 0,
      documentsIndexed: 0,
      documentsRemoved: 0,
    },
    queryCount: 0,
    latestQueryAtUtc: null,
    queryFingerprint: null,
    queryLength: null,
    matchedCounts: { latest: null, latestTotal: null, total: 0, zeroMatchQueries: 0 },
    actorId: null,
    correlationId: null,
    errorSummary: null,
    metadata: {},
  };
}

/** Derives the freshness state: failed latest run, never indexed, or indexed within `staleAfterMs`. */
export function freshnessOf(state: StoredIndexState, now: number, staleAfterMs: number): FreshnessState {
  if (state.latestOutcome === 'failed') return 'failed';
  if (!state.indexedAtUtc) return 'unindexed';
  return now - Date.parse(state.indexedAtUtc) > staleAfterMs ? 'stale' : 'fresh';
}
