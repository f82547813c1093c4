import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { parseEndpoint, probeSectionSchema, type ProbeOptions } from '@corekit/probe-kit';

/** Fields of one `Engine:Observability:DependencyHealth:Elasticsearch:Dependencies:<n>` entry, besides the common ones. */
export const elasticsearchHealthEntryShape = {
  /**
   * Cluster address: `http://es:9200`, `https://es.example.com` (port 443), or `es:9200` (http). A bare base
   * URL resolves to `GET /_cluster/health`; a URL ending in `/_cluster/health[/<index>]` is used as is; any
   * other path is a reverse-proxy prefix. Query parameters (`?wait_for_status=yellow&timeout=2s`) are sent
   * on the health request. Required.
   */
  Endpoint: z.string().optional().describe('cluster address; a bare base URL resolves to /_cluster/health'),
  /** API key (the base64 `id:api_key` value), sent as `Authorization: ApiKey <key>`. */
  ApiKey: secretString('API key, sent as Authorization: ApiKey').optional(),
  /** Bearer token (service account or OAuth2 token), sent as `Authorization: Bearer <token>`. */
  BearerToken: secretString('bearer token, sent as Authorization: Bearer').optional(),
  /** User name for basic authentication; needs Password. */
  Username: z.string().min(1).optional().describe('user name for basic authentication'),
  /** Password for basic authentication. */
  Password: secretString('password for basic authentication').optional(),
};

/** Code options of addElasticsearchHealth, in the configuration's shape. */
export type ElasticsearchHealthOptions = ProbeOptions<typeof elasticsearchHealthEntryShape>;

/** Elasticsearch's HTTP port when the endpoint names neither a port nor an http(s) scheme. */
export const elasticsearchDefaultPort = 9200;

export function validateElasticsearchHealthEntry(
  entry: { Endpoint?: string; ApiKey?: string; BearerToken?: string; Username?: string; Password?: string },
  issue: (field: string, message: string) => void,
): void {
  let urlHasCredentials = false;
  if (!entry.Endpoint) {
    issue('Endpoint', 'is required: the cluster address, for example http://elasticsearch:9200');
  } else {
    try {
      const parsed = parseEndpoint(entry.Endpoint, { protocol: 'http', port: elasticsearchDefaultPort });
      if (parsed.protocol !== 'http' && parsed.protocol !== 'https') throw new Error('scheme');
      urlHasCredentials = parsed.username !== undefined;
    } catch {
      issue('Endpoint', 'must be an http(s) URL or host:port, for example http://elasticsearch:9200');
    }
  }
  const kinds = [
    entry.ApiKey && 'ApiKey',
    entry.BearerToken && 'BearerToken',
    (entry.Username || urlHasCredentials) && 'Username/Password',
  ].filter(Boolean);
  if (kinds.length > 1)
    issue(
      String(kinds[1]).split('/')[0],
      `set only one kind of credentials: ${kinds.join(', ')} are all set`,
    );
  if (entry.Username && !entry.Password) issue('Password', 'is required when Username is set');
  if (entry.Password && !entry.Username) issue('Username', 'is required when Password is set');
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Elasticsearch` section. */
export const elasticsearchHealthOptionsSchema = probeSectionSchema({
  entryShape: elasticsearchHealthEntryShape,
  validateEntry: validateElasticsearchHealthEntry,
});
