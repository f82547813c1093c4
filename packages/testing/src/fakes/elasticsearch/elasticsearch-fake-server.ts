/**
 * A fake Elasticsearch 8 HTTP API, answering as the Elasticsearch REST reference documents:
 * - `GET /` (and `HEAD /`): the root info document (name, cluster_name, version.number, tagline);
 * - `GET /_cluster/health` and `GET /_cluster/health/<index>`: the cluster health body with `status`
 *   green/yellow/red; with `timedOut` set, `timed_out: true` and HTTP 408 (as Elasticsearch answers a
 *   health request whose wait timed out);
 * - when credentials are configured, a request without them: 401 `security_exception` "missing
 *   authentication credentials", with wrong ones: 401 `security_exception` "unable to authenticate", both
 *   with the `WWW-Authenticate` header; accepted: `Authorization: ApiKey <key>`, `Bearer <token>`, `Basic`;
 * - the index, `_bulk`, `_search`, `_count` and `_refresh` APIs of `search-index-fake.ts` (in memory);
 * - anything else: 404 with an error body.
 * Every answer carries `X-Elastic-Product: Elasticsearch` (the official client refuses a server without it)
 * and the JSON content type the client asked for (compatible-with=8 when requested).
 */
import {
  basicCredentialsOf,
  startHttpFakeServer,
  type FakeHttpServer,
  type RecordedHttpRequest,
} from '../../http-fake-server';
import { clusterHealthBody, type ClusterColour } from '../search-cluster-health-body';
import { createSearchIndexState, searchIndexOrNotFound, type SearchIndexState } from './search-index-fake';

export interface ElasticsearchFakeOptions {
  /** Colour reported by `_cluster/health`. Default green. */
  status?: ClusterColour;
  /** Reports `timed_out: true` with HTTP 408. */
  timedOut?: boolean;
  /** Required API key (the encoded value sent after `ApiKey `). */
  apiKey?: string;
  /** Required bearer token. */
  bearerToken?: string;
  /** Required basic credentials. */
  username?: string;
  password?: string;
  clusterName?: string;
}

export interface ElasticsearchFakeServer extends FakeHttpServer {
  readonly options: ElasticsearchFakeOptions;
  /** The in-memory indices (name → mappings and documents). */
  readonly searchIndices: SearchIndexState;
}

function authenticationError(request: RecordedHttpRequest, missing: boolean) {
  const reason = missing
    ? `missing authentication credentials for REST request [${request.path}]`
    : 'unable to authenticate with provided credentials and anonymous access is not allowed for this request';
  const header = {
    'WWW-Authenticate': ['Basic realm="security" charset="UTF-8"', 'Bearer realm="security"', 'ApiKey'],
  };
  const error = {
    root_cause: [{ type: 'security_exception', reason, header }],
    type: 'security_exception',
    reason,
    header,
  };
  return {
    status: 401,
    extraHeaders: { 'www-authenticate': 'Basic realm="security" charset="UTF-8"' },
    body: { error, status: 401 },
  };
}

function authenticate(options: ElasticsearchFakeOptions, request: RecordedHttpRequest) {
  const required =
    options.apiKey !== undefined || options.bearerToken !== undefined || options.username !== undefined;
  if (!required) return undefined;
  const header =
    typeof request.headers.authorization === 'string' ? request.headers.authorization : undefined;
  if (!header) return authenticationError(request, true);
  const [scheme, value = ''] = header.split(/\s+/, 2);
  const accepted =
    (/^apikey$/i.test(scheme) && options.apiKey !== undefined && value === options.apiKey) ||
    (/^bearer$/i.test(scheme) && options.bearerToken !== undefined && value === options.bearerToken) ||
    (/^basic$/i.test(scheme) &&
      options.username !== undefined &&
      basicCredentialsOf(request)?.username === options.username &&
      basicCredentialsOf(request)?.password === (options.password ?? ''));
  return accepted ? undefined : authenticationError(request, false);
}

export async function startElasticsearchFakeServer(
  initial: ElasticsearchFakeOptions = {},
): Promise<ElasticsearchFakeServer> {
  const options: ElasticsearchFakeOptions = {
    status: 'green',
    clusterName: 'fake-elasticsearch',
    ...initial,
  };
  const searchIndices = createSearchIndexState();
  const server = await startHttpFakeServer((request) => {
    const accept = typeof request.headers.accept === 'string' ? request.headers.accept : '';
    const contentType = accept.includes('compatible-with=8')
      ? 'application/vnd.elasticsearch+json;compatible-with=8'
      : 'application/json';
    const headers = { 'x-elastic-product': 'Elasticsearch', 'content-type': contentType };
    const refused = authenticate(options, request);
    if (refused)
      return {
        status: refused.status,
        headers: { ...headers, ...refused.extraHeaders },
        body: JSON.stringify(refused.body),
      };
    const health = /^\/_cluster\/health(?:\/([^/]+))?\/?$/.exec(request.path);
    if ((request.method === 'GET' || request.method === 'HEAD') && request.path === '/') {
      return {
        status: 200,
        headers,
        body: JSON.stringify({
          name: 'fake-node-1',
          cluster_name: options.clusterName,
          cluster_uuid: 'k8Xg0fakeUUIDQd2Kq9w',
          version: {
            number: '8.15.0',
            build_flavor: 'default',
            lucene_version: '9.11.1',
            minimum_wire_compatibility_version: '7.17.0',
          },
          tagline: 'You Know, for Search',
        }),
      };
    }
    if (request.method === 'GET' && health) {
      const timedOut = options.timedOut === true;
      return {
        status: timedOut ? 408 : 200,
        headers,
        body: JSON.stringify(clusterHealthBody(options.clusterName!, options.status!, timedOut)),
      };
    }
    return searchIndexOrNotFound(searchIndices, request, headers);
  });
  return Object.assign(server, { options, searchIndices });
}
