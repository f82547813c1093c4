import type { emptyIndexState, KnowledgeIndexingResult } from './index-model';
import type { ReindexCall } from './reindex-service';

/** A run's request as the job receives it. */
export interface PendingRun extends ReindexCall {
  readonly runId: string;
  readonly actorId: string;
  readonly correlationId: string;
}

/** A KnowledgeIndexingResult with the run's facts and zero counts, overridden by `rest`. */
export function indexingResult(
  collectionId: string,
  providerId: string,
  run: PendingRun,
  startedAtUtc: string,
  rest: Partial<KnowledgeIndexingResult> & Pick<KnowledgeIndexingResult, 'outcome'>,
): KnowledgeIndexingResult {
  return {
    collectionId,
    runId: run.runId,
    runningRunId: null,
    trigger: run.trigger,
    providerId,
    mode: null,
    startedAtUtc,
    completedAtUtc: null,
    documentsSeen: 0,
    documentsIndexed: 0,
    documentsUnchanged: 0,
    documentsRemoved: 0,
    documentsRejected: 0,
    documentCount: 0,
    sourceFreshnessUtc: null,
    actorId: run.actorId,
    correlationId: run.correlationId,
    error: null,
    metadata: { trigger: run.trigger, ...run.metadata },
    ...rest,
  };
}

/** The state after a finished run. */
export function settleState(state: ReturnType<typeof emptyIndexState>, result: KnowledgeIndexingResult) {
  const ok = result.outcome === 'succeeded';
  return {
    ...state,
    latestRunId: result.runId,
    latestOutcome: result.outcome,
    latestTrigger: result.trigger,
    observedAtUtc: result.completedAtUtc ?? result.startedAtUtc,
    indexedAtUtc: ok ? result.completedAtUtc : state.indexedAtUtc,
    sourceFreshnessUtc: ok ? result.sourceFreshnessUtc : state.sourceFreshnessUtc,
    documentCount: ok ? result.documentCount : state.documentCount,
    indexingCounts: {
      ...state.indexingCounts,
      succeeded: state.indexingCounts.succeeded + (ok ? 1 : 0),
      failed: state.indexingCounts.failed + (ok ? 0 : 1),
      documentsIndexed: state.indexingCounts.documentsIndexed + result.documentsIndexed,
      documentsRemoved: state.indexingCounts.documentsRemoved + result.documentsRemoved,
    },
    actorId: result.actorId,
    correlationId: result.correlationId,
    errorSummary: result.error,
    metadata: result.metadata,
  };
}
