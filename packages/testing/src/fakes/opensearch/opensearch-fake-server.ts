/**
 * A fake OpenSearch 2 HTTP API, answering as the OpenSearch documentation describes:
 * - `GET /` (and `HEAD /`): the root info document (version.distribution `opensearch`, version.number);
 * - `GET /_cluster/health` and `GET /_cluster/health/<index>`: the cluster health body with `status`
 *   green/yellow/red plus `discovered_master` and `discovered_cluster_manager`; with `timedOut` set,
 *   `timed_out: true` and HTTP 408; for an index not in `indices` (when that list is given): 408 with
 *   status red and `timed_out: true`, as OpenSearch answers once the wait for a missing index times out;
 * - with `clusterManagerMissing` set, every API answers 503 `cluster_manager_not_discovered_exception`;
 * - when credentials are configured (the security plugin), a request without valid basic or bearer
 *   credentials: 401 `Unauthorized` (text/plain) with `WWW-Authenticate: Basic realm="OpenSearch Security"`;
 * - the index, `_bulk`, `_search`, `_count` and `_refresh` APIs of `../elasticsearch/search-index-fake.ts`
 *   (in memory, shared with the Elasticsearch fake);
 * - anything else: 404 with an error body.
 */
import { basicCredentialsOf, startHttpFakeServer, type FakeHttpServer } from '../../http-fake-server';
import {
  createSearchIndexState,
  searchIndexOrNotFound,
  type SearchIndexState,
} from '../elasticsearch/search-index-fake';
import { clusterHealthBody, type ClusterColour } from '../search-cluster-health-body';

export interface OpenSearchFakeOptions {
  /** Colour reported by `_cluster/health`. Default green. */
  status?: ClusterColour;
  /** Reports `timed_out: true` with HTTP 408. */
  timedOut?: boolean;
  /** Answers 503 cluster_manager_not_discovered_exception to everything. */
  clusterManagerMissing?: boolean;
  /** Known indices; when set, health of any other index times out (408, red). */
  indices?: string[];
  /** Required bearer token. */
  bearerToken?: string;
  /** Required basic credentials. */
  username?: string;
  password?: string;
  clusterName?: string;
}

export interface OpenSearchFakeServer extends FakeHttpServer {
  readonly options: OpenSearchFakeOptions;
  /** The in-memory indices (name → mappings and documents). */
  readonly searchIndices: SearchIndexState;
}

export async function startOpenSearchFakeServer(
  initial: OpenSearchFakeOptions = {},
): Promise<OpenSearchFakeServer> {
  const options: OpenSearchFakeOptions = { status: 'green', clusterName: 'fake-opensearch', ...initial };
  const searchIndices = createSearchIndexState();
  const server = await startHttpFakeServer((request) => {
    const headers = { 'content-type': 'application/json; charset=UTF-8' };
    if (options.bearerToken !== undefined || options.username !== undefined) {
      const header = typeof request.headers.authorization === 'string' ? request.headers.authorization : '';
      const basic = basicCredentialsOf(request);
      const accepted =
        (options.bearerToken !== undefined && header === `Bearer ${options.bearerToken}`) ||
        (options.username !== undefined &&
          basic?.username === options.username &&
          basic.password === (options.password ?? ''));
      if (!accepted) {
        return {
          status: 401,
          headers: {
            'content-type': 'text/plain; charset=UTF-8',
            'www-authenticate': 'Basic realm="OpenSearch Security"',
          },
          body: 'Unauthorized',
        };
      }
    }
    if (options.clusterManagerMissing) {
      const error = {
        root_cause: [{ type: 'cluster_manager_not_discovered_exception', reason: null }],
        type: 'cluster_manager_not_discovered_exception',
        reason: null,
      };
      return { status: 503, headers, body: JSON.stringify({ error, status: 503 }) };
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && request.path === '/') {
      return {
        status: 200,
        headers,
        body: JSON.stringify({
          name: 'fake-opensearch-node1',
          cluster_name: options.clusterName,
          cluster_uuid: 'Xb9fakeUUID0pQ7sLmN2w',
          version: {
            distribution: 'opensearch',
            number: '2.17.0',
            lucene_version: '9.11.1',
            minimum_wire_compatibility_version: '7.10.0',
          },
          tagline: 'The OpenSearch Project: https://opensearch.org/',
        }),
      };
    }
    const health = /^\/_cluster\/health(?:\/([^/]+))?\/?$/.exec(request.path);
    if (request.method === 'GET' && health) {
      const index = health[1] ? decodeURIComponent(health[1]) : undefined;
      const missingIndex =
        index !== undefined && options.indices !== undefined && !options.indices.includes(index);
      const timedOut = options.timedOut === true || missingIndex;
      const body = {
        ...clusterHealthBody(options.clusterName!, missingIndex ? 'red' : options.status!, timedOut),
        discovered_master: true,
        discovered_cluster_manager: true,
      };
      return { status: timedOut ? 408 : 200, headers, body: JSON.stringify(body) };
    }
    return searchIndexOrNotFound(searchIndices, request, headers);
  });
  return Object.assign(server, { options, searchIndices });
}
