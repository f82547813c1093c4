export { startOpenSearchFakeServer } from './opensearch-fake-server';
export type { OpenSearchFakeOptions, OpenSearchFakeServer } from './opensearch-fake-server';
