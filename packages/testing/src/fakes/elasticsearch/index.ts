export { startElasticsearchFakeServer } from './elasticsearch-fake-server';
export type { ElasticsearchFakeOptions, ElasticsearchFakeServer } from './elasticsearch-fake-server';
export type { SearchIndexState } from './search-index-fake';
