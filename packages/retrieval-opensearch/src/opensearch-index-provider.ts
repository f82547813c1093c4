import { Client, type ClientOptions } from '@opensearch-project/opensearch';
import {
  createSearchClusterIndexProvider,
  type KnowledgeIndexProvider,
  type SearchClusterCalls,
} from '@corekit/retrieval';

/** Options of the OpenSearch provider. */
export interface OpenSearchIndexProviderOptions {
  /** `http(s)://host:9200`. */
  readonly node: string;
  /** Basic credentials (security plugin); the password is a secret, never logged. */
  readonly username?: string;
  readonly password?: string;
  /** Prefix of index names. Default `corekit-knowledge-`. */
  readonly indexPrefix?: string;
  /** Request timeout in ms. Default 30000. */
  readonly requestTimeoutMs?: number;
  /** A ready client instead of `node` and credentials (the provider then does not close it). */
  readonly client?: Client;
}

/** Adapts the official client (request `body`, answers wrapped in `{ body }`) to the shared calls. */
export function openSearchCalls(client: Client, ownsClient: boolean): SearchClusterCalls {
  return {
    indexExists: async (index) => (await client.indices.exists({ index })).body === true,
    createIndex: async (index, body) => {
      await client.indices.create({ index, body: body as never });
    },
    bulk: async (operations) => (await client.bulk({ body: operations as never })).body as never,
    search: async (index, body) => (await client.search({ index, body: body as never })).body as never,
    count: async (index) => Number((await client.count({ index })).body.count),
    refresh: async (index) => {
      await client.indices.refresh({ index });
    },
    close: async () => {
      if (ownsClient) await client.close();
    },
  };
}

/** The OpenSearch knowledge-index provider (id `opensearch`) on the official client. */
export function createOpenSearchIndexProvider(
  options: OpenSearchIndexProviderOptions,
): KnowledgeIndexProvider {
  const settings: ClientOptions = {
    node: options.node,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    ...(options.username ? { auth: { username: options.username, password: options.password ?? '' } } : {}),
  };
  const client = options.client ?? new Client(settings);
  return createSearchClusterIndexProvider({
    id: 'opensearch',
    displayName: 'OpenSearch (multi_match, BM25, native highlighting)',
    calls: openSearchCalls(client, options.client === undefined),
    indexPrefix: options.indexPrefix,
  });
}
