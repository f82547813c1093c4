import { CoreError, secretString, type EngineBuilder } from '@corekit/abstractions';
import { retrievalRegistrationKey, type KnowledgeIndexProvider } from '@corekit/retrieval';
import { z } from 'zod';
import { createOpenSearchIndexProvider } from './opensearch-index-provider';

/** The configuration section `addOpenSearchKnowledgeIndex` binds. */
export const opensearchKnowledgeIndexSectionPath = 'Engine:Retrieval:OpenSearch';

/** `Engine:Retrieval:OpenSearch`: the cluster of the knowledge indexes. */
export const opensearchKnowledgeIndexOptionsSchema = z.object({
  /** `http(s)://host:9200`. Required. */
  Node: z.string().url(),
  Username: z.string().min(1).optional(),
  /** A secret. */
  Password: secretString('OpenSearch password').optional(),
  /** Prefix of index names, lower case. Default `corekit-knowledge-`. */
  IndexPrefix: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,100}$/)
    .default('corekit-knowledge-'),
  /** Request timeout, 100 to 600000 ms. Default 30000. */
  RequestTimeoutMilliseconds: z.number().int().min(100).max(600_000).default(30_000),
});

export type OpenSearchKnowledgeIndexOptionsInput = z.input<typeof opensearchKnowledgeIndexOptionsSchema>;

/**
 * Binds `Engine:Retrieval:OpenSearch` and installs the OpenSearch provider on the retrieval pack (call
 * `addRetrieval` first; select it with `Engine:Retrieval:Provider` = `opensearch`). Answers the provider.
 */
export function addOpenSearchKnowledgeIndex(
  builder: EngineBuilder,
  options: OpenSearchKnowledgeIndexOptionsInput | Record<string, never> = {},
): KnowledgeIndexProvider {
  builder.declarePack({ packageName: '@corekit/retrieval-opensearch', specificationVersion: 1 });
  const registration = builder.resolve(retrievalRegistrationKey);
  if (!registration) {
    throw new CoreError('RETRIEVAL_NOT_REGISTERED', 'call addRetrieval before addOpenSearchKnowledgeIndex');
  }
  const settings = builder.configuration.bind(
    opensearchKnowledgeIndexSectionPath,
    opensearchKnowledgeIndexOptionsSchema,
    options,
  );
  const provider = createOpenSearchIndexProvider({
    node: settings.Node,
    username: settings.Username,
    password: settings.Password,
    indexPrefix: settings.IndexPrefix,
    requestTimeoutMs: settings.RequestTimeoutMilliseconds,
  });
  registration.useProvider(provider);
  return provider;
}
