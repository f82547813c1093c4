import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { parseEndpoint, probeSectionSchema, type ProbeOptions } from '@corekit/probe-kit';

/** Fields of one `Engine:Observability:DependencyHealth:OpenSearch:Dependencies:<n>` entry, besides the common ones. */
export const openSearchHealthEntryShape = {
  /**
   * Cluster address: `https://opensearch:9200`, or `opensearch:9200` (http). A bare base URL resolves to
   * `GET /_cluster/health`; a URL ending in `/_cluster/health[/<index>]` is used as is; any other path is a
   * reverse-proxy prefix. Query parameters are sent on the health request. Required.
   */
  Endpoint: z.string().optional().describe('cluster address; a bare base URL resolves to /_cluster/health'),
  /** Index (or comma-separated indices, or a pattern) whose health is asked: `/_cluster/health/<Index>`. */
  Index: z.string().min(1).optional().describe('index appended to the health path'),
  /** Bearer token (JWT), sent as `Authorization: Bearer <token>`. */
  BearerToken: secretString('bearer token, sent as Authorization: Bearer').optional(),
  /** User name for basic authentication (security plugin internal users); needs Password. */
  Username: z.string().min(1).optional().describe('user name for basic authentication'),
  /** Password for basic authentication. */
  Password: secretString('password for basic authentication').optional(),
};

/** Code options of addOpenSearchHealth, in the configuration's shape. */
export type OpenSearchHealthOptions = ProbeOptions<typeof openSearchHealthEntryShape>;

/** OpenSearch's HTTP port when the endpoint names neither a port nor an http(s) scheme. */
export const openSearchDefaultPort = 9200;

export function validateOpenSearchHealthEntry(
  entry: { Endpoint?: string; BearerToken?: string; Username?: string; Password?: string },
  issue: (field: string, message: string) => void,
): void {
  let urlHasCredentials = false;
  if (!entry.Endpoint) {
    issue('Endpoint', 'is required: the cluster address, for example https://opensearch:9200');
  } else {
    try {
      const parsed = parseEndpoint(entry.Endpoint, { protocol: 'http', port: openSearchDefaultPort });
      if (parsed.protocol !== 'http' && parsed.protocol !== 'https') throw new Error('scheme');
      urlHasCredentials = parsed.username !== undefined;
    } catch {
      issue('Endpoint', 'must be an http(s) URL or host:port, for example https://opensearch:9200');
    }
  }
  if (entry.BearerToken && (entry.Username || urlHasCredentials)) {
    issue('BearerToken', 'set only one kind of credentials: BearerToken and Username/Password are both set');
  }
  if (entry.Username && !entry.Password) issue('Password', 'is required when Username is set');
  if (entry.Password && !entry.Username) issue('Username', 'is required when Password is set');
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:OpenSearch` section. */
export const openSearchHealthOptionsSchema = probeSectionSchema({
  entryShape: openSearchHealthEntryShape,
  validateEntry: validateOpenSearchHealthEntry,
});
