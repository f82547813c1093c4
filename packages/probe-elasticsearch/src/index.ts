export { addElasticsearchHealth } from './add-elasticsearch-health';
export { elasticsearchHealthProbe } from './elasticsearch-health-probe';
export {
  elasticsearchHealthEntryShape,
  elasticsearchHealthOptionsSchema,
} from './elasticsearch-health-options';
export type { ElasticsearchHealthOptions } from './elasticsearch-health-options';
