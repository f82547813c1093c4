import {
  packDiagnostics,
  type EngineBuilder,
  type LogLevel,
  type PackDiagnostics,
} from '@corekit/abstractions';

/** The retrieval pack's event ids (3260-3279). */
export const retrievalEventIds = {
  indexingStarted: 3260,
  indexingSucceeded: 3261,
  indexingFailed: 3262,
  indexingAlreadyRunning: 3263,
  queryAnswered: 3264,
  queryFailed: 3265,
  queryRejected: 3266,
  backgroundRunStarted: 3267,
  backgroundRunCompleted: 3268,
  providerMissing: 3269,
  statesRestored: 3270,
  documentsRejected: 3271,
  stateStoreFailed: 3272,
  providerCloseFailed: 3273,
  indexStateReconciled: 3274,
  reindexLeaseProblem: 3275,
  reindexTakenOver: 3276,
} as const;

/** The event-id catalog entry `addRetrieval` registers. */
export const retrievalEventIdCatalog = {
  component: 'Retrieval pack (@corekit/retrieval)',
  ranges: [[3260, 3279]] as const,
  names: {
    3260: 'knowledge-indexing-started',
    3261: 'knowledge-indexing-succeeded',
    3262: 'knowledge-indexing-failed',
    3263: 'knowledge-indexing-already-running',
    3264: 'knowledge-query-answered',
    3265: 'knowledge-query-failed',
    3266: 'knowledge-query-rejected',
    3267: 'knowledge-background-reindex-started',
    3268: 'knowledge-background-reindex-completed',
    3269: 'knowledge-index-provider-missing',
    3270: 'knowledge-index-states-restored',
    3271: 'knowledge-documents-rejected',
    3272: 'knowledge-index-state-store-failed',
    3273: 'knowledge-index-provider-close-failed',
    3274: 'knowledge-index-state-reconciled',
    3275: 'knowledge-reindex-lease-problem',
    3276: 'knowledge-reindex-taken-over',
  },
};

/**
 * Logs, story entries, runtime events and counters of the pack. Nothing written here carries query text,
 * document text or metadata values: collection ids, run ids, outcomes, counts and error codes only.
 */
export class RetrievalTelemetry {
  private readonly indexRuns;
  private readonly documents;
  private readonly queries;
  private readonly queryDuration;
  /** A log record of category `retrieval`. */
  readonly log: PackDiagnostics['log'];
  /** A story entry of kind `retrieval`. */
  readonly story: PackDiagnostics['story'];
  private readonly transition: PackDiagnostics['transition'];

  constructor(builder: EngineBuilder) {
    ({
      log: this.log,
      story: this.story,
      transition: this.transition,
    } = packDiagnostics(builder, 'retrieval'));
    this.indexRuns = builder.meter.counter(
      'corekit.retrieval.index.runs',
      'knowledge indexing runs by collection and outcome',
    );
    this.documents = builder.meter.counter(
      'corekit.retrieval.index.documents',
      'documents written to or removed from knowledge indexes',
    );
    this.queries = builder.meter.counter(
      'corekit.retrieval.queries',
      'knowledge queries by collection and outcome',
    );
    this.queryDuration = builder.meter.histogram(
      'corekit.retrieval.query.duration',
      'knowledge query duration',
      'ms',
    );
  }

  /** An indexing run's transition: logged, counted, published, and written to the story. */
  indexing(
    transition: 'started' | 'succeeded' | 'failed' | 'already-running',
    eventId: number,
    message: string,
    facts: Record<string, unknown> & { collectionId: string; runId: string },
  ): void {
    const level: LogLevel =
      transition === 'failed' ? 'error' : transition === 'already-running' ? 'warn' : 'info';
    this.log(level, eventId, message, facts);
    if (transition !== 'started')
      this.indexRuns.add(1, { collection: facts.collectionId, outcome: transition });
    this.transition('retrieval.indexing', facts.collectionId, transition, message, facts);
  }

  documentsWritten(collectionId: string, indexed: number, removed: number): void {
    if (indexed > 0) this.documents.add(indexed, { collection: collectionId, change: 'indexed' });
    if (removed > 0) this.documents.add(removed, { collection: collectionId, change: 'removed' });
  }

  query(collectionId: string, outcome: 'answered' | 'failed' | 'rejected', durationMs?: number): void {
    this.queries.add(1, { collection: collectionId, outcome });
    if (durationMs !== undefined) this.queryDuration.record(durationMs, { collection: collectionId });
  }
}
