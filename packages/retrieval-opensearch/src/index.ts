export { createOpenSearchIndexProvider, openSearchCalls } from './opensearch-index-provider';
export type { OpenSearchIndexProviderOptions } from './opensearch-index-provider';
export {
  addOpenSearchKnowledgeIndex,
  opensearchKnowledgeIndexOptionsSchema,
  opensearchKnowledgeIndexSectionPath,
} from './add-opensearch-knowledge-index';
export type { OpenSearchKnowledgeIndexOptionsInput } from './add-opensearch-knowledge-index';
