import { performance } from 'node:perf_hooks';
import { OperationError } from '@corekit/abstractions';
import type { CollectionRegistry } from './collections';
import { indexedCollection } from './collections';
import { emptyIndexState, type KnowledgeQueryRequest, type KnowledgeQueryResult } from './index-model';
import type { IndexStateStore } from './index-state-store';
import type { ProviderSelection } from './provider-selection';
import { retrievalErrorCodes } from './reindex-service';
import type { RetrievalOptions } from './retrieval-options';
import { retrievalEventIds, type RetrievalTelemetry } from './retrieval-telemetry';
import { errorSummary, generatedId, isoOf, queryFingerprint } from './summaries';

export interface QueryServiceParts {
  readonly options: RetrievalOptions;
  readonly collections: CollectionRegistry;
  readonly providers: ProviderSelection;
  readonly states: IndexStateStore;
  readonly telemetry: RetrievalTelemetry;
  readonly now: () => number;
}

/**
 * Queries: checks the request, asks the provider for the best `maxResults` matches and records the query in the
 * collection's state by fingerprint and length only (the text is never stored, logged or echoed).
 */
export class QueryService {
  constructor(private readonly parts: QueryServiceParts) {}

  async query(collectionId: string, request: KnowledgeQueryRequest): Promise<KnowledgeQueryResult> {
    const { options, collections, providers, telemetry, now } = this.parts;
    if (!options.EnableQuerying) {
      throw new OperationError(
        'not-active',
        retrievalErrorCodes.queryingNotActive,
        'knowledge querying is not active',
      );
    }
    const collection = collections.get(collectionId);
    if (!collection) {
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
        `knowledge querying is not active: provider "${options.Provider}" is not installed`,
      );
    }
    const text = request.queryText.trim();
    const maxResults = request.maxResults ?? options.DefaultMaxResults;
    const reject = (code: string, message: string) => {
      telemetry.query(collectionId, 'rejected');
      telemetry.log('info', retrievalEventIds.queryRejected, `Query on ${collectionId} rejected (${code})`, {
        collectionId,
        code,
      });
      return new OperationError('invalid-input', code, message);
    };
    if (text.length === 0) throw reject(retrievalErrorCodes.queryTextEmpty, 'queryText must not be empty');
    if (text.length > options.MaxQueryLength) {
      throw reject(
        retrievalErrorCodes.queryTextTooLong,
        `queryText must be at most ${options.MaxQueryLength} characters`,
      );
    }
    if (maxResults < 1 || maxResults > options.MaxResultsLimit) {
      throw reject(
        retrievalErrorCodes.maxResultsOutOfBounds,
        `maxResults must lie in 1..${options.MaxResultsLimit}`,
      );
    }
    const queryId = generatedId('query');
    const actorId = request.actorId ?? 'anonymous';
    const correlationId = request.correlationId ?? generatedId('corr');
    const fingerprint = queryFingerprint(text);
    const target = indexedCollection(collection);
    const started = performance.now();
    let answer;
    try {
      await provider.open(target);
      answer = await provider.query(target, {
        text,
        maxResults,
        maxHighlights: options.MaxHighlightsPerMatch,
      });
    } catch (error) {
      const summary = errorSummary(error, retrievalErrorCodes.queryFailed);
      telemetry.query(collectionId, 'failed');
      telemetry.log(
        'error',
        retrievalEventIds.queryFailed,
        `Query on ${collectionId} failed (${summary.code})`,
        {
          collectionId,
          queryId,
          errorCode: summary.code,
        },
      );
      await this.record(collection.id, collection.sourceModuleId, provider.id, (state) => ({
        ...state,
        errorSummary: summary,
      }));
      throw new OperationError(
        'unavailable',
        retrievalErrorCodes.queryFailed,
        `the ${provider.id} index could not answer the query`,
      );
    }
    const durationMs = performance.now() - started;
    const observedAtUtc = isoOf(now());
    const matches = answer.matches.slice(0, maxResults).map((match, index) => ({
      rank: index + 1,
      documentId: match.id,
      score: match.score,
      highlights: [...match.highlights],
      metadata: { ...match.metadata },
      updatedAtUtc: isoOf(match.updatedAt),
    }));
    await this.record(collection.id, collection.sourceModuleId, provider.id, (state) => ({
      ...state,
      observedAtUtc,
      queryCount: state.queryCount + 1,
      latestQueryAtUtc: observedAtUtc,
      queryFingerprint: fingerprint,
      queryLength: text.length,
      matchedCounts: {
        latest: matches.length,
        latestTotal: answer.total,
        total: state.matchedCounts.total + matches.length,
        zeroMatchQueries: state.matchedCounts.zeroMatchQueries + (matches.length === 0 ? 1 : 0),
      },
      actorId,
      correlationId,
    }));
    telemetry.query(collectionId, 'answered', durationMs);
    telemetry.log('debug', retrievalEventIds.queryAnswered, `Query on ${collectionId} answered`, {
      collectionId,
      queryId,
      matchedCount: matches.length,
    });
    return {
      collectionId,
      queryId,
      providerId: provider.id,
      queryFingerprint: fingerprint,
      queryLength: text.length,
      maxResults,
      matchedCount: matches.length,
      totalMatches: answer.total,
      totalIsLowerBound: answer.totalIsLowerBound ?? false,
      matches,
      actorId,
      correlationId,
      observedAtUtc,
    };
  }

  private record(
    collectionId: string,
    sourceModuleId: string,
    providerId: string,
    change: Parameters<IndexStateStore['update']>[2],
  ) {
    const at = isoOf(this.parts.now());
    return this.parts.states.update(
      collectionId,
      () => emptyIndexState(collectionId, sourceModuleId, providerId, at),
      change,
    );
  }
}
