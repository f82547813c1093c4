export { addRetrieval, retrievalRegistrationKey } from './add-retrieval';
export type { AddRetrievalOptions, RetrievalRegistration } from './add-retrieval';
export { retrievalOptionsSchema, retrievalSectionPath } from './retrieval-options';
export type { RetrievalOptions, RetrievalOptionsInput } from './retrieval-options';
export type {
  KnowledgeCollectionDefinition,
  KnowledgeDocument,
  KnowledgeDocumentSource,
  KnowledgeMetadataValue,
  RegisteredCollection,
} from './collections';
export type {
  IndexedCollection,
  IndexedDocument,
  KnowledgeHighlight,
  KnowledgeIndexProvider,
  ProviderMatch,
  ProviderQuery,
  ProviderQueryAnswer,
} from './index-provider';
export {
  knowledgeIndexingResultSchema,
  knowledgeIndexStateSchema,
  knowledgeQueryRequestSchema,
  knowledgeQueryResultSchema,
  knowledgeMatchSchema,
  reindexQuerySchema,
  indexingOutcomes,
  indexingTriggers,
  freshnessStates,
} from './index-model';
export type {
  KnowledgeIndexingResult,
  KnowledgeIndexState,
  KnowledgeQueryRequest,
  KnowledgeQueryResult,
  IndexingOutcome,
  IndexingTrigger,
  FreshnessState,
  ReindexRequest,
} from './index-model';
export { createInProcessIndexProvider, miniSearchOptions } from './in-process-provider';
export { highlightFields } from './highlights';
export { retrievalErrorCodes } from './reindex-service';
export { retrievalEventIds } from './retrieval-telemetry';
export { backgroundReindexJobId, backgroundTrigger } from './background-reindexing';
export { indexStateStoreName } from './index-state-store';
export { queryFingerprint } from './summaries';
export { createSearchClusterIndexProvider, searchIndexName } from './search-cluster/search-cluster-provider';
export type { SearchClusterProviderOptions } from './search-cluster/search-cluster-provider';
export type {
  SearchClusterCalls,
  SearchClusterHit,
  SearchClusterSearchAnswer,
  SearchClusterBulkAnswer,
} from './search-cluster/search-cluster-calls';
export { isAlreadyExists } from './search-cluster/search-cluster-calls';
