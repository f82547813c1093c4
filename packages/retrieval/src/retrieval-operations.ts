import { defineOperation, identifierSchema, type OperationDefinition } from '@corekit/abstractions';
import { z } from 'zod';
import {
  knowledgeIndexingResultSchema,
  knowledgeQueryRequestSchema,
  knowledgeQueryResultSchema,
  reindexQuerySchema,
} from './index-model';
import type { QueryService } from './query-service';
import type { ReindexService } from './reindex-service';

const params = z.object({ collectionId: identifierSchema });

/** `POST /engine/knowledge-indexes/{collectionId}/reindex` and `POST /engine/knowledge-indexes/{collectionId}/queries`. */
export function retrievalOperations(
  reindex: ReindexService,
  queries: QueryService,
): OperationDefinition<any, any, any, any>[] {
  return [
    defineOperation({
      id: 'retrieval.reindex',
      method: 'POST',
      path: '/engine/knowledge-indexes/:collectionId/reindex',
      summary: 'Reindex a knowledge collection (incremental by the source updated timestamp)',
      description:
        'Query values runId, actorId and correlationId are optional (generated when absent). Answers ' +
        'KnowledgeIndexingResult; a reindex of a collection already being indexed answers outcome already-running.',
      tags: ['retrieval'],
      params,
      query: reindexQuerySchema,
      result: knowledgeIndexingResultSchema,
      errors: {
        'invalid-input': 'a query value is not an identifier',
        'not-found': 'the collection is not registered',
        'not-active': 'indexing is not active (EnableIngestion false, or the provider is not installed)',
      },
      handler: ({ params: { collectionId }, query }) =>
        reindex.reindex(collectionId, query, {
          trigger: 'route',
          metadata: { route: '/engine/knowledge-indexes/{collectionId}/reindex' },
        }),
    }),
    defineOperation({
      id: 'retrieval.query',
      method: 'POST',
      path: '/engine/knowledge-indexes/:collectionId/queries',
      summary: 'Query a knowledge collection',
      description:
        'Body: knowledge query request (queryText, maxResults, actorId, correlationId, metadata). Answers ' +
        'KnowledgeQueryResult with ranked matches, scores and highlights.',
      tags: ['retrieval'],
      params,
      body: knowledgeQueryRequestSchema,
      result: knowledgeQueryResultSchema,
      errors: {
        'invalid-input': 'empty or too long queryText, maxResults out of bounds, or an unknown body key',
        'not-found': 'the collection is not registered',
        'not-active': 'querying is not active (EnableQuerying false, or the provider is not installed)',
        unavailable: 'the index provider failed to answer',
      },
      handler: ({ params: { collectionId }, body }) => queries.query(collectionId, body),
    }),
  ];
}
