import { CoreError, secretString, type EngineBuilder } from '@corekit/abstractions';
import { retrievalRegistrationKey, type KnowledgeIndexProvider } from '@corekit/retrieval';
import { z } from 'zod';
import { createPostgresIndexProvider } from './postgres-index-provider';

/** The configuration section `addPostgresKnowledgeIndex` binds. */
export const postgresKnowledgeIndexSectionPath = 'Engine:Retrieval:PostgreSql';

/** `Engine:Retrieval:PostgreSql`: where the PostgreSQL knowledge index lives. */
export const postgresKnowledgeIndexOptionsSchema = z.object({
  /** `postgres://user:password@host:5432/database`. Required. A secret: never logged. */
  ConnectionString: secretString('PostgreSQL connection string of the knowledge index'),
  /** Table holding every collection's documents. Default `knowledge_documents`. */
  Table: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,40}$/, 'must be a lower-case SQL identifier of at most 41 characters')
    .default('knowledge_documents'),
  /** Text-search configuration (`english`, `simple`, `german`…). Default `english`. */
  TextSearchConfig: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/)
    .default('english'),
  /** Pool size, 1 to 50. Default 4. */
  MaxConnections: z.number().int().min(1).max(50).default(4),
});

export type PostgresKnowledgeIndexOptionsInput = z.input<typeof postgresKnowledgeIndexOptionsSchema>;

/**
 * Binds `Engine:Retrieval:PostgreSql` and installs the PostgreSQL provider on the retrieval pack (call
 * `addRetrieval` first; select it with `Engine:Retrieval:Provider` = `postgresql`). Answers the provider.
 */
export function addPostgresKnowledgeIndex(
  builder: EngineBuilder,
  options: PostgresKnowledgeIndexOptionsInput | Record<string, never> = {},
): KnowledgeIndexProvider {
  builder.declarePack({ packageName: '@corekit/retrieval-postgres', specificationVersion: 1 });
  const registration = builder.resolve(retrievalRegistrationKey);
  if (!registration) {
    throw new CoreError('RETRIEVAL_NOT_REGISTERED', 'call addRetrieval before addPostgresKnowledgeIndex');
  }
  const settings = builder.configuration.bind(
    postgresKnowledgeIndexSectionPath,
    postgresKnowledgeIndexOptionsSchema,
    options,
  );
  const provider = createPostgresIndexProvider({
    connectionString: settings.ConnectionString,
    table: settings.Table,
    textSearchConfig: settings.TextSearchConfig,
    maxConnections: settings.MaxConnections,
  });
  registration.useProvider(provider);
  return provider;
}
