import { parseEndpoint } from './parse-endpoint';

/** Where the client connects and which health request it sends, from an Endpoint value. */
export interface SearchClusterEndpoint {
  /** Node URL for the client: scheme, host, port and any proxy prefix, without credentials or query. */
  readonly node: string;
  readonly index?: string;
  readonly query: Record<string, string>;
  readonly username?: string;
  readonly password?: string;
  /** Safe label of the health request (`http://es:9200/_cluster/health`). */
  readonly label: string;
}

/**
 * Splits an endpoint into the client's node URL and the health request: a bare base URL asks
 * `/_cluster/health`; a path ending in `/_cluster/health[/<index>]` keeps its index; any other path is a
 * proxy prefix. `index` (when given) wins over an index in the path.
 */
export function resolveSearchClusterEndpoint(
  endpoint: string,
  defaultPort: number,
  index?: string,
): SearchClusterEndpoint {
  const parsed = parseEndpoint(endpoint, { protocol: 'http', port: defaultPort });
  const url = new URL(
    `${parsed.protocol}://${parsed.host.includes(':') ? `[${parsed.host}]` : parsed.host}:${parsed.port}${parsed.path}`,
  );
  const match = /^(.*?)\/_cluster\/health(?:\/([^/]+))?\/?$/.exec(url.pathname);
  const prefix = (match ? match[1] : url.pathname).replace(/\/+$/, '');
  const selectedIndex = index ?? (match?.[2] ? decodeURIComponent(match[2]) : undefined);
  const node = `${url.protocol}//${url.host}${prefix}`;
  return {
    node,
    ...(selectedIndex ? { index: selectedIndex } : {}),
    query: Object.fromEntries(url.searchParams),
    ...(parsed.username !== undefined ? { username: parsed.username, password: parsed.password ?? '' } : {}),
    label: `${node}/_cluster/health${selectedIndex ? `/${encodeURIComponent(selectedIndex)}` : ''}`,
  };
}

/** `type: reason` of an Elasticsearch/OpenSearch error body, or the text itself. */
export function searchErrorReason(body: unknown): string {
  if (typeof body === 'string') return body;
  const error = (body as { error?: { type?: unknown; reason?: unknown } | string } | undefined)?.error;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object')
    return [error.type, error.reason].filter((part) => typeof part === 'string' && part).join(': ');
  return body === undefined ? '' : JSON.stringify(body);
}
