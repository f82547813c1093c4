import { OperationError, type JobHandle, type JobRunContext } from '@corekit/abstractions';
import type { CollectionRegistry, RegisteredCollection } from './collections';
import {
  emptyIndexState,
  type KnowledgeIndexingResult,
  type IndexingTrigger,
  type ReindexRequest,
} from './index-model';
import { indexingResult, settleState, type PendingRun } from './indexing-results';
import type { IndexStateStore } from './index-state-store';
import type { ReindexLeases } from './reindex-leases';
import { indexCollection } from './indexer';
import type { ProviderSelection } from './provider-selection';
import type { RetrievalOptions } from './retrieval-options';
import { retrievalEventIds, type RetrievalTelemetry } from './retrieval-telemetry';
import { errorSummary, generatedId, isoOf } from './summaries';

/** Who asked for a run and with which safe metadata (background runs carry the scheduler's). */
export interface ReindexCall {
  readonly trigger: IndexingTrigger;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export const retrievalErrorCodes = {
  indexingNotActive: 'RETRIEVAL_INDEXING_NOT_ACTIVE',
  queryingNotActive: 'RETRIEVAL_QUERYING_NOT_ACTIVE',
  collectionNotFound: 'RETRIEVAL_COLLECTION_NOT_FOUND',
  providerMissing: 'RETRIEVAL_PROVIDER_MISSING',
  indexingFailed: 'RETRIEVAL_INDEXING_FAILED',
  /** The run's collection lease was lost while it indexed: its result is not recorded (another replica runs it). */
  reindexLeaseLost: 'RETRIEVAL_REINDEX_LEASE_LOST',
  queryFailed: 'RETRIEVAL_QUERY_FAILED',
  queryTextEmpty: 'RETRIEVAL_QUERY_TEXT_EMPTY',
  queryTextTooLong: 'RETRIEVAL_QUERY_TEXT_TOO_LONG',
  maxResultsOutOfBounds: 'RETRIEVAL_MAX_RESULTS_OUT_OF_BOUNDS',
} as const;

export interface ReindexServiceParts {
  readonly options: RetrievalOptions;
  /** Who may index a collection now, across replicas (a shared index), or always this process. */
  readonly leases: ReindexLeases;
  readonly collections: CollectionRegistry;
  readonly providers: ProviderSelection;
  readonly states: IndexStateStore;
  readonly telemetry: RetrievalTelemetry;
  readonly now: () => number;
}

/**
 * Indexing runs. Each collection has one job on the engine's scheduler (`retrieval.reindex:<id>`), so a run
 * never overlaps another run of the same collection: a trigger during a run answers `already-running`. The
 * route and the background scheduler both go through `reindex`, which hands the run's request to the job
 * (the scheduler calls the job synchronously inside `trigger()`, so the hand-over cannot be taken by another
 * call).
 */
export class ReindexService {
  private readonly jobs = new Map<string, JobHandle<KnowledgeIndexingResult>>();
  private readonly pending = new Map<string, PendingRun>();
  private readonly running = new Map<string, string>();
  private readonly inFlight = new Set<Promise<KnowledgeIndexingResult>>();

  constructor(private readonly parts: ReindexServiceParts) {}

  /** Registers the collection's job (called once per collection at registration). */
  attachJob(collectionId: string, handle: JobHandle<KnowledgeIndexingResult>): void {
    this.jobs.set(collectionId, handle);
  }

  /** The job's body: takes the handed-over request (or defaults for a bare manual trigger) and runs. */
  runJob(collection: RegisteredCollection, context: JobRunContext): Promise<KnowledgeIndexingResult> {
    const request = this.pending.get(collection.id) ?? {
      runId: generatedId('reindex'),
      actorId: 'engine-job-scheduler',
      correlationId: context.runId,
      trigger: 'route' as const,
      metadata: { jobRunId: context.runId },
    };
    this.pending.delete(collection.id);
    return this.perform(collection, request, context.signal);
  }

  /** True while this process, or another replica holding the collection's lease, indexes it. */
  isRunning(collectionId: string): boolean {
    return this.running.has(collectionId) || this.parts.leases.heldElsewhere(collectionId) !== null;
  }

  /**
   * Runs a collection whose lapsed lease this replica took over (its holder died mid-run) once more, as
   * trigger `replica-takeover`. Refused (a run of this process is in progress), it is not recorded.
   */
  async takeOver(collectionId: string, previousOwner: string, previousRunId: string): Promise<void> {
    await this.reindex(
      collectionId,
      { actorId: 'replica-takeover' },
      {
        trigger: 'replica-takeover',
        metadata: { takenOverFromOwner: previousOwner, takenOverRunId: previousRunId },
      },
    ).catch(() => undefined);
  }

  async reindex(
    collectionId: string,
    request: ReindexRequest,
    call: ReindexCall,
  ): Promise<KnowledgeIndexingResult> {
    const { options, collections, providers } = this.parts;
    if (!options.EnableIngestion) {
      throw new OperationError(
        'not-active',
        retrievalErrorCodes.indexingNotActive,
        'knowledge indexing is not active',
      );
    }
    const collection = collections.get(collectionId);
    const handle = this.jobs.get(collectionId);
    if (!collection || !handle) {
      throw new OperationError(
        'not-found',
        retrievalErrorCodes.collectionNotFound,
        `knowledge collection "${collectionId}" is not registered`,
      );
    }
    const provider = providers.selected();
    if (!provider) {
      throw new OperationError(
        'not-active',
        retrievalErrorCodes.providerMissing,
        `knowledge indexing is not active: provider "${options.Provider}" is not installed`,
      );
    }
    const run: PendingRun = {
      runId: request.runId ?? generatedId('reindex'),
      actorId: request.actorId ?? (call.trigger === 'route' ? 'anonymous' : call.trigger),
      correlationId: request.correlationId ?? generatedId('corr'),
      ...call,
    };
    this.pending.set(collectionId, run);
    const triggered = handle.trigger();
    this.pending.delete(collectionId);
    const outcome = await triggered;
    if (outcome.status === 'completed') return outcome.result;
    if (outcome.status === 'already-running')
      return this.alreadyRunning(collection, provider.id, run, outcome.runningRunId);
    if (outcome.status === 'not-running') {
      throw new OperationError(
        'not-active',
        retrievalErrorCodes.indexingNotActive,
        'knowledge indexing is not active: the engine is not started',
      );
    }
    throw new OperationError(
      'unavailable',
      retrievalErrorCodes.indexingFailed,
      'the indexing run failed unexpectedly',
    );
  }

  private async alreadyRunning(
    collection: RegisteredCollection,
    providerId: string,
    run: PendingRun,
    jobRunId: string,
  ): Promise<KnowledgeIndexingResult> {
    const runningRunId = this.running.get(collection.id) ?? jobRunId;
    const at = isoOf(this.parts.now());
    if (run.trigger === 'replica-takeover') {
      // Another replica took it over first (or this one runs it): nothing was asked of anyone.
      return indexingResult(collection.id, providerId, run, at, {
        outcome: 'already-running',
        runningRunId,
        completedAtUtc: at,
      });
    }
    await this.record(collection, providerId, (state) => ({
      ...state,
      observedAtUtc: at,
      indexingCounts: { ...state.indexingCounts, alreadyRunning: state.indexingCounts.alreadyRunning + 1 },
    }));
    this.parts.telemetry.indexing(
      'already-running',
      retrievalEventIds.indexingAlreadyRunning,
      `Reindex of ${collection.id} refused: run ${runningRunId} is in progress`,
      { collectionId: collection.id, runId: run.runId, runningRunId, trigger: run.trigger },
    );
    return indexingResult(collection.id, providerId, run, at, {
      outcome: 'already-running',
      runningRunId,
      completedAtUtc: at,
    });
  }

  /** Resolves once every indexing run in progress now has settled (the stop waits for them). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private perform(
    collection: RegisteredCollection,
    run: PendingRun,
    signal: AbortSignal,
  ): Promise<KnowledgeIndexingResult> {
    const performing = this.performNow(collection, run, signal);
    this.inFlight.add(performing);
    const forget = () => this.inFlight.delete(performing);
    performing.then(forget, forget);
    return performing;
  }

  private async performNow(
    collection: RegisteredCollection,
    run: PendingRun,
    signal: AbortSignal,
  ): Promise<KnowledgeIndexingResult> {
    const { providers, telemetry, now, options } = this.parts;
    const provider = providers.selected()!;
    const startedAtUtc = isoOf(now());
    const facts = {
      collectionId: collection.id,
      runId: run.runId,
      trigger: run.trigger,
      providerId: provider.id,
    };
    const lease = await this.parts.leases.acquire(collection.id, run.runId);
    if (!lease.acquired) return this.alreadyRunning(collection, provider.id, run, lease.holder.workId);
    if (lease.takenOverFrom !== null) {
      telemetry.log(
        'warn',
        retrievalEventIds.reindexTakenOver,
        `Indexing ${collection.id} taken over from a replica whose lease ran out`,
        { ...facts, previousOwner: lease.takenOverFrom },
      );
    }
    this.running.set(collection.id, run.runId);
    try {
      await this.record(collection, provider.id, (state) => ({
        ...state,
        latestRunId: run.runId,
        observedAtUtc: startedAtUtc,
        actorId: run.actorId,
        correlationId: run.correlationId,
        indexingCounts: { ...state.indexingCounts, started: state.indexingCounts.started + 1 },
      }));
      telemetry.indexing(
        'started',
        retrievalEventIds.indexingStarted,
        `Indexing ${collection.id} started`,
        facts,
      );
      let result: KnowledgeIndexingResult;
      try {
        const counts = await indexCollection(
          collection,
          provider,
          options.IndexBatchSize,
          AbortSignal.any([signal, lease.signal]),
        );
        const completedAtUtc = isoOf(now());
        result = indexingResult(collection.id, provider.id, run, startedAtUtc, {
          outcome: 'succeeded',
          completedAtUtc,
          mode: counts.mode,
          documentsSeen: counts.documentsSeen,
          documentsIndexed: counts.documentsIndexed,
          documentsUnchanged: counts.documentsUnchanged,
          documentsRemoved: counts.documentsRemoved,
          documentsRejected: counts.documentsRejected,
          documentCount: counts.documentCount,
          sourceFreshnessUtc: counts.sourceFreshness === null ? null : isoOf(counts.sourceFreshness),
        });
        if (counts.documentsRejected > 0) {
          telemetry.log(
            'warn',
            retrievalEventIds.documentsRejected,
            `Indexing ${collection.id} rejected documents`,
            {
              ...facts,
              documentsRejected: counts.documentsRejected,
            },
          );
        }
        telemetry.documentsWritten(collection.id, counts.documentsIndexed, counts.documentsRemoved);
      } catch (error) {
        result = indexingResult(collection.id, provider.id, run, startedAtUtc, {
          outcome: 'failed',
          completedAtUtc: isoOf(now()),
          error: errorSummary(error, retrievalErrorCodes.indexingFailed),
        });
      }
      // A run whose lease was lost meanwhile records nothing: the replica that took the collection over (or
      // takes the lapsed lease over) runs it again and records its own result.
      if (!this.parts.leases.holds(collection.id))
        return this.leaseLost(collection, provider.id, run, startedAtUtc);
      await this.record(collection, provider.id, (state) => settleState(state, result));
      const message =
        result.outcome === 'succeeded'
          ? `Indexed ${collection.id}: ${result.documentsIndexed} written, ${result.documentsRemoved} removed, ${result.documentCount} in the index`
          : `Indexing ${collection.id} failed (${result.error?.code})`;
      telemetry.indexing(
        result.outcome === 'succeeded' ? 'succeeded' : 'failed',
        result.outcome === 'succeeded'
          ? retrievalEventIds.indexingSucceeded
          : retrievalEventIds.indexingFailed,
        message,
        {
          ...facts,
          documentsIndexed: result.documentsIndexed,
          documentsRemoved: result.documentsRemoved,
          documentCount: result.documentCount,
          ...(result.error ? { errorCode: result.error.code } : {}),
        },
      );
      return result;
    } finally {
      this.running.delete(collection.id);
      await this.parts.leases.release(collection.id);
    }
  }

  /** The answer of a run whose lease was lost while it indexed: failed, nothing recorded, logged (3275). */
  private leaseLost(
    collection: RegisteredCollection,
    providerId: string,
    run: PendingRun,
    startedAtUtc: string,
  ): KnowledgeIndexingResult {
    const error = {
      code: retrievalErrorCodes.reindexLeaseLost,
      message: `The lease on ${collection.id} was lost while this run indexed it; its result is not recorded and the replica holding the collection runs it again`,
    };
    this.parts.telemetry.log('warn', retrievalEventIds.reindexLeaseProblem, error.message, {
      collectionId: collection.id,
      runId: run.runId,
      errorCode: error.code,
    });
    return indexingResult(collection.id, providerId, run, startedAtUtc, {
      outcome: 'failed',
      completedAtUtc: isoOf(this.parts.now()),
      error,
    });
  }

  private record(
    collection: RegisteredCollection,
    providerId: string,
    change: Parameters<IndexStateStore['update']>[2],
  ) {
    const at = isoOf(this.parts.now());
    return this.parts.states.update(
      collection.id,
      () => emptyIndexState(collection.id, collection.sourceModuleId, providerId, at),
      (state) => change({ ...state, providerId }),
    );
  }
}
