import type { JobRunContext } from '@corekit/abstractions';
import type { CollectionRegistry } from './collections';
import type { KnowledgeIndexingResult } from './index-model';
import type { ReindexService } from './reindex-service';
import type { RetrievalOptions } from './retrieval-options';
import { retrievalEventIds, type RetrievalTelemetry } from './retrieval-telemetry';
import { errorSummary } from './summaries';

/** Id of the one background job on the engine's scheduler. */
export const backgroundReindexJobId = 'retrieval.background-reindex';
/** The trigger recorded on background runs. */
export const backgroundTrigger = 'retrieval-background-scheduler';

/** `all` when BackgroundReindexCollectionIds is empty, else `listed`. */
export function collectionScope(options: RetrievalOptions): 'all' | 'listed' {
  return options.BackgroundReindexCollectionIds.length === 0 ? 'all' : 'listed';
}

/** The collection ids a background run covers, in registration order. */
export function scopedCollectionIds(options: RetrievalOptions, collections: CollectionRegistry): string[] {
  const all = collections.list().map((collection) => collection.id);
  if (collectionScope(options) === 'all') return all;
  const listed = new Set(options.BackgroundReindexCollectionIds);
  return all.filter((id) => listed.has(id));
}

/** What one background run did (the job's result). */
export interface BackgroundRunSummary {
  readonly schedulerIterationId: string;
  readonly results: readonly KnowledgeIndexingResult[];
  readonly failures: readonly { readonly collectionId: string; readonly code: string }[];
}

/**
 * The background job's body: reindexes every collection in scope one after the other through the same
 * `reindex` path as the route, recording the scheduler metadata on each run. A collection already being
 * indexed answers already-running for that collection; the others still run.
 */
export async function runBackgroundReindex(
  context: JobRunContext,
  options: RetrievalOptions,
  collections: CollectionRegistry,
  reindex: ReindexService,
  telemetry: RetrievalTelemetry,
): Promise<BackgroundRunSummary> {
  const ids = scopedCollectionIds(options, collections);
  const metadata = {
    scheduler: 'engine-job-scheduler',
    schedulerJobId: context.jobId,
    schedulerIterationId: context.runId,
    schedulerIteration: context.iteration,
    schedulerTrigger: context.trigger,
    collectionScope: collectionScope(options),
    startupRun: options.BackgroundReindexRunOnStartup,
    startupDelayMilliseconds: options.BackgroundReindexStartupDelayMilliseconds,
    intervalMilliseconds: options.BackgroundReindexIntervalMilliseconds,
  };
  telemetry.log(
    'info',
    retrievalEventIds.backgroundRunStarted,
    `Background reindexing of ${ids.length} collection(s) started`,
    {
      schedulerIterationId: context.runId,
      collectionCount: ids.length,
    },
  );
  const results: KnowledgeIndexingResult[] = [];
  const failures: Array<{ collectionId: string; code: string }> = [];
  for (const collectionId of ids) {
    if (context.signal.aborted) break;
    try {
      results.push(
        await reindex.reindex(
          collectionId,
          { actorId: backgroundTrigger, correlationId: context.runId.replace(/[^A-Za-z0-9._:-]/g, '-') },
          { trigger: backgroundTrigger, metadata },
        ),
      );
    } catch (error) {
      failures.push({ collectionId, code: errorSummary(error, 'RETRIEVAL_INDEXING_FAILED').code });
    }
  }
  const failed = results.filter((result) => result.outcome === 'failed').length + failures.length;
  telemetry.log(
    'info',
    retrievalEventIds.backgroundRunCompleted,
    `Background reindexing completed (${failed} failed)`,
    {
      schedulerIterationId: context.runId,
      collectionCount: ids.length,
      failedCount: failed,
    },
  );
  telemetry.story(
    null,
    'background-reindexed',
    `Background reindexing of ${ids.length} collection(s) completed, ${failed} failed`,
    {
      ...metadata,
      collectionIds: ids,
    },
  );
  return { schedulerIterationId: context.runId, results, failures };
}
