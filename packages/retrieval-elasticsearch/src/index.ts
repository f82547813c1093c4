export { createElasticsearchIndexProvider, elasticsearchCalls } from './elasticsearch-index-provider';
export type { ElasticsearchIndexProviderOptions } from './elasticsearch-index-provider';
export {
  addElasticsearchKnowledgeIndex,
  elasticsearchKnowledgeIndexOptionsSchema,
  elasticsearchKnowledgeIndexSectionPath,
} from './add-elasticsearch-knowledge-index';
export type { ElasticsearchKnowledgeIndexOptionsInput } from './add-elasticsearch-knowledge-index';
