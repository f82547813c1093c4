export { createPostgresIndexProvider } from './postgres-index-provider';
export type { PostgresIndexProviderOptions } from './postgres-index-provider';
export {
  analyzeSql,
  querySql,
  upsertSql,
  createTableSql,
  versionsSql,
  removeSql,
  countSql,
  vectorExpression,
} from './postgres-sql';
export {
  addPostgresKnowledgeIndex,
  postgresKnowledgeIndexOptionsSchema,
  postgresKnowledgeIndexSectionPath,
} from './add-postgres-knowledge-index';
export type { PostgresKnowledgeIndexOptionsInput } from './add-postgres-knowledge-index';
