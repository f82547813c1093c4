import { CoreError, secretString, type EngineBuilder } from '@corekit/abstractions';
import { retrievalRegistrationKey, type KnowledgeIndexProvider } from '@corekit/retrieval';
import { z } from 'zod';
import { createElasticsearchIndexProvider } from './elasticsearch-index-provider';

/** The configuration section `addElasticsearchKnowledgeIndex` binds. */
export const elasticsearchKnowledgeIndexSectionPath = 'Engine:Retrieval:Elasticsearch';

/** `Engine:Retrieval:Elasticsearch`: the cluster of the knowledge indexes. */
export const elasticsearchKnowledgeIndexOptionsSchema = z.object({
  /** `http(s)://host:9200`. Required. */
  Node: z.string().url(),
  /** API key (encoded value). A secret. */
  ApiKey: secretString('Elasticsearch API key').optional(),
  Username: z.string().min(1).optional(),
  /** A secret. */
  Password: secretString('Elasticsearch password').optional(),
  /** Prefix of index names, lower case. Default `corekit-knowledge-`. */
  IndexPrefix: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,100}$/)
    .default('corekit-knowledge-'),
  /** Request timeout, 100 to 600000 ms. Default 30000. */
  RequestTimeoutMilliseconds: z.number().int().min(100).max(600_000).default(30_000),
});

export type ElasticsearchKnowledgeIndexOptionsInput = z.input<
  typeof elasticsearchKnowledgeIndexOptionsSchema
>;

/**
 * Binds `Engine:Retrieval:Elasticsearch` and installs the Elasticsearch provider on the retrieval pack (call
 * `addRetrieval` first; select it with `Engine:Retrieval:Provider` = `elasticsearch`). Answers the provider.
 */
export function addElasticsearchKnowledgeIndex(
  builder: EngineBuilder,
  options: ElasticsearchKnowledgeIndexOptionsInput | Record<string, never> = {},
): KnowledgeIndexProvider {
  builder.declarePack({ packageName: '@corekit/retrieval-elasticsearch', specificationVersion: 1 });
  const registration = builder.resolve(retrievalRegistrationKey);
  if (!registration) {
    throw new CoreError(
      'RETRIEVAL_NOT_REGISTERED',
      'call addRetrieval before addElasticsearchKnowledgeIndex',
    );
  }
  const settings = builder.configuration.bind(
    elasticsearchKnowledgeIndexSectionPath,
    elasticsearchKnowledgeIndexOptionsSchema,
    options,
  );
  const provider = createElasticsearchIndexProvider({
    node: settings.Node,
    apiKey: settings.ApiKey,
    username: settings.Username,
    password: settings.Password,
    indexPrefix: settings.IndexPrefix,
    requestTimeoutMs: settings.RequestTimeoutMilliseconds,
  });
  registration.useProvider(provider);
  return provider;
}
