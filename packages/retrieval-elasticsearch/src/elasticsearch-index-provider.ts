import { Client, type ClientOptions } from '@elastic/elasticsearch';
import {
  createSearchClusterIndexProvider,
  type KnowledgeIndexProvider,
  type SearchClusterCalls,
} from '@corekit/retrieval';

/** Options of the Elasticsearch provider. */
export interface ElasticsearchIndexProviderOptions {
  /** `http(s)://host:9200`. */
  readonly node: string;
  /** API key (the encoded value), or basic credentials; both secrets, never logged. */
  readonly apiKey?: string;
  readonly username?: string;
  readonly password?: string;
  /** Prefix of index names. Default `corekit-knowledge-`. */
  readonly indexPrefix?: string;
  /** Request timeout in ms. Default 30000. */
  readonly requestTimeoutMs?: number;
  /** A ready client instead of `node` and credentials (the provider then does not close it). */
  readonly client?: Client;
}

/** Adapts the official v8 client (bodies as top-level keys, answers unwrapped) to the shared calls. */
export function elasticsearchCalls(client: Client, ownsClient: boolean): SearchClusterCalls {
  return {
    indexExists: (index) => client.indices.exists({ index }),
    createIndex: async (index, body) => {
      await client.indices.create({ index, settings: body.settings, mappings: body.mappings as never });
    },
    bulk: async (operations) => (await client.bulk({ operations: operations as never })) as never,
    search: async (index, body) => (await client.search({ index, ...(body as object) })) as never,
    count: async (index) => (await client.count({ index })).count,
    refresh: async (index) => {
      await client.indices.refresh({ index });
    },
    close: async () => {
      if (ownsClient) await client.close();
    },
  };
}

/** The Elasticsearch knowledge-index provider (id `elasticsearch`) on the official client. */
export function createElasticsearchIndexProvider(
  options: ElasticsearchIndexProviderOptions,
): KnowledgeIndexProvider {
  const settings: ClientOptions = {
    node: options.node,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    ...(options.apiKey ? { auth: { apiKey: options.apiKey } } : {}),
    ...(options.username ? { auth: { username: options.username, password: options.password ?? '' } } : {}),
  };
  const client = options.client ?? new Client(settings);
  return createSearchClusterIndexProvider({
    id: 'elasticsearch',
    displayName: 'Elasticsearch (multi_match, BM25, native highlighting)',
    calls: elasticsearchCalls(client, options.client === undefined),
    indexPrefix: options.indexPrefix,
  });
}
