import { Client, HttpConnection, errors } from '@elastic/elasticsearch';
import {
  abortable,
  clusterHealthResult,
  httpFailure,
  resolveSearchClusterEndpoint,
  searchErrorReason,
  unhealthy,
  type ClusterHealthBody,
  type ProbeDefinition,
} from '@corekit/probe-kit';
import {
  elasticsearchDefaultPort,
  elasticsearchHealthEntryShape,
  validateElasticsearchHealthEntry,
} from './elasticsearch-health-options';

type Entry = {
  Endpoint?: string;
  ApiKey?: string;
  BearerToken?: string;
  Username?: string;
  Password?: string;
};

function authOf(entry: Entry, endpoint: { username?: string; password?: string }) {
  if (entry.ApiKey) return { apiKey: entry.ApiKey };
  if (entry.BearerToken) return { bearer: entry.BearerToken };
  if (entry.Username) return { username: entry.Username, password: entry.Password ?? '' };
  if (endpoint.username !== undefined)
    return { username: endpoint.username, password: endpoint.password ?? '' };
  return undefined;
}

/**
 * The Elasticsearch probe: one `_cluster/health` request through the official client, on a dedicated
 * connection (HttpConnection with keep-alive off, no retries, no sniffing), the client closed in `finally`.
 */
export const elasticsearchHealthProbe: ProbeDefinition<typeof elasticsearchHealthEntryShape> = {
  kind: 'Elasticsearch',
  entryShape: elasticsearchHealthEntryShape,
  validateEntry: validateElasticsearchHealthEntry,
  describeTarget: (entry) => resolveSearchClusterEndpoint(entry.Endpoint!, elasticsearchDefaultPort).label,
  async check(entry, context) {
    const endpoint = resolveSearchClusterEndpoint(entry.Endpoint!, elasticsearchDefaultPort);
    const auth = authOf(entry, endpoint);
    const client = new Client({
      node: endpoint.node,
      ...(auth ? { auth } : {}),
      Connection: HttpConnection,
      agent: { keepAlive: false },
      maxRetries: 0,
      requestTimeout: context.timeoutMs,
      compression: false,
      sniffOnStart: false,
      sniffOnConnectionFault: false,
    });
    try {
      const response = await abortable(
        client.cluster.health(endpoint.index ? { index: endpoint.index } : {}, {
          signal: context.signal,
          meta: true,
          ignore: [408],
          querystring: endpoint.query,
        }),
        context.signal,
        () => void client.close(),
      );
      return clusterHealthResult('Elasticsearch', response.body as ClusterHealthBody);
    } catch (error) {
      if (error instanceof errors.ResponseError) {
        return httpFailure(
          `GET ${endpoint.label}`,
          error.meta.statusCode ?? 0,
          searchErrorReason(error.meta.body),
          'ApiKey, BearerToken or Username/Password',
        );
      }
      if (error instanceof errors.ProductNotSupportedError) {
        return unhealthy(
          'UNEXPECTED_RESPONSE',
          `The server at ${endpoint.node} does not identify itself as Elasticsearch (no X-Elastic-Product header); check Endpoint.`,
        );
      }
      throw error;
    } finally {
      await client.close();
    }
  },
};
