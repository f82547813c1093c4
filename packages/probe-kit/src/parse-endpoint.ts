import { CoreError } from '@corekit/abstractions';

/** An endpoint split into parts. `host` never carries IPv6 brackets; `path` always starts with `/`. */
export interface ParsedEndpoint {
  readonly protocol: string;
  readonly host: string;
  readonly port: number;
  /** Path plus query string (`/v1/status/leader?dc=eu`), `/` when none was given. */
  readonly path: string;
  readonly username?: string;
  readonly password?: string;
}

const wellKnownPorts: Record<string, number> = { http: 80, https: 443, ws: 80, wss: 443 };

/**
 * Parses `host`, `host:port`, `[ipv6]:port`, or a URL (`https://user:pass@host:9200/path`). Without a port,
 * a URL with an http(s) scheme uses the scheme's port (80/443), anything else uses `defaults.port`.
 * Throws CoreError ENDPOINT_INVALID (the message never repeats the value, which may hold credentials).
 */
export function parseEndpoint(value: string, defaults: { protocol?: string; port: number }): ParsedEndpoint {
  const text = value.trim();
  const invalid = (why: string) =>
    new CoreError(
      'ENDPOINT_INVALID',
      `The endpoint is not valid: ${why}. Use host, host:port, [ipv6]:port or a URL such as http://host:port/path.`,
    );
  if (!text) throw invalid('it is empty');
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `${defaults.protocol ?? 'tcp'}://${text}`);
  } catch {
    throw invalid('it could not be parsed');
  }
  const protocol = url.protocol.replace(/:$/, '').toLowerCase();
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw invalid('it has no host');
  const port = url.port
    ? Number(url.port)
    : hasScheme && wellKnownPorts[protocol] !== undefined
      ? wellKnownPorts[protocol]
      : defaults.port;
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  return {
    protocol: hasScheme ? protocol : (defaults.protocol ?? ''),
    host,
    port,
    path: `${url.pathname || '/'}${url.search}`,
    ...(url.username ? { username: decode(url.username) } : {}),
    ...(url.password ? { password: decode(url.password) } : {}),
  };
}

/**
 * Builds a request URL from an endpoint: an endpoint with no path (or just `/`) gets `defaultPath`; query
 * parameters with a defined value are set (replacing any of the same name). Credentials in the endpoint are
 * dropped from the URL and returned separately, so they travel only in an Authorization header.
 */
export function resolveHttpEndpoint(
  endpoint: string,
  options: { defaultPath?: string; defaultPort?: number; query?: Record<string, string | undefined> } = {},
): { url: string; username?: string; password?: string } {
  const parsed = parseEndpoint(endpoint, { protocol: 'http', port: options.defaultPort ?? 80 });
  if (parsed.protocol !== 'http' && parsed.protocol !== 'https') {
    throw new CoreError(
      'ENDPOINT_INVALID',
      `The endpoint must be an http or https URL, got the scheme "${parsed.protocol}".`,
    );
  }
  const url = new URL(
    `${parsed.protocol}://${parsed.host.includes(':') ? `[${parsed.host}]` : parsed.host}:${parsed.port}${parsed.path}`,
  );
  if ((url.pathname === '' || url.pathname === '/') && options.defaultPath)
    url.pathname = options.defaultPath;
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(name, value);
  }
  return {
    url: url.toString(),
    ...(parsed.username !== undefined ? { username: parsed.username } : {}),
    ...(parsed.password !== undefined ? { password: parsed.password } : {}),
  };
}
