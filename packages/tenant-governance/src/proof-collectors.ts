import dns from 'node:dns';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import dnsPacket from 'dns-packet';
import { allowListCovers, internalAddressClass } from './proof-address-policy';

/** Code-only transport settings of proof collection (tests pass a CA and a lookup; hosts usually none). */
export interface ProofTransport {
  /** Extra trusted CA certificates (PEM); default the system trust store. */
  readonly ca?: string | readonly string[];
  /**
   * Address lookup for the HTTP file fetch (default the operating system's); never used for DoH proofs. It is
   * asked once per fetch; the connection goes to the address it answered and checked.
   */
  readonly lookup?: LookupFunction;
  /** Port of the HTTP file fetch (default 443). */
  readonly httpFilePort?: number;
}

export interface BoundedResponse {
  readonly status: number;
  readonly location: string | undefined;
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

/** A collection refusal with a stable reason code. */
export class CollectionError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * One HTTPS request with a deadline and a body bound: no redirect is followed here, the body is cut off
 * (and the request refused with `body-too-large`) past `maxBytes`, and the whole exchange must end before
 * `deadline` (`timeout`). TLS failures answer `tls-error`, connection failures `transport-error`.
 */
export function boundedRequest(
  url: URL,
  options: {
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: Buffer;
    maxBytes: number;
    deadline: number;
    transport: ProofTransport;
    /** Connect to this address (already resolved and checked) whatever the URL's host name resolves to. */
    pinnedAddress?: LookupAddress;
    port?: number;
  },
): Promise<BoundedResponse> {
  if (url.protocol !== 'https:') return Promise.reject(new CollectionError('not-https'));
  const remaining = options.deadline - Date.now();
  if (remaining <= 0) return Promise.reject(new CollectionError('timeout'));
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        protocol: 'https:',
        hostname: url.hostname,
        port: options.port ?? (url.port ? Number(url.port) : 443),
        path: `${url.pathname}${url.search}`,
        method: options.method ?? 'GET',
        headers: { 'user-agent': 'corekit-domain-verification', ...options.headers },
        ...(isIP(url.hostname) ? {} : { servername: url.hostname }),
        agent: false,
        ...(options.transport.ca ? { ca: options.transport.ca as string | string[] } : {}),
        ...(options.pinnedAddress ? { lookup: pinnedLookup(options.pinnedAddress) } : {}),
        timeout: remaining,
      },
      (response) => {
        const declared = Number(response.headers['content-length'] ?? '0');
        if (declared > options.maxBytes) {
          response.destroy();
          reject(new CollectionError('body-too-large'));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            request.destroy();
            reject(new CollectionError('body-too-large'));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location,
            contentType: response.headers['content-type'],
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', () => reject(new CollectionError('transport-error')));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      reject(new CollectionError('timeout'));
    }, remaining);
    timer.unref();
    request.on('timeout', () => {
      request.destroy();
      reject(new CollectionError('timeout'));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      reject(
        new CollectionError(
          /CERT|SSL|TLS|SELF_SIGNED|HOSTNAME/i.test(code) ? 'tls-error' : 'transport-error',
        ),
      );
    });
    request.on('close', () => clearTimeout(timer));
    if (options.body) request.end(options.body);
    else request.end();
  });
}

/** A lookup that answers `address` for any name: the connection goes where the check said it may. */
function pinnedLookup(address: LookupAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
}

/** The addresses of `hostName` from one lookup (the transport's, else the operating system's). */
function resolveOnce(hostName: string, transport: ProofTransport): Promise<LookupAddress[]> {
  const version = isIP(hostName);
  if (version !== 0) return Promise.resolve([{ address: hostName, family: version }]);
  const lookup: LookupFunction = transport.lookup ?? dns.lookup;
  return new Promise((resolve, reject) => {
    lookup(hostName, { all: true }, (error, addresses) => {
      const list = Array.isArray(addresses) ? addresses : [];
      if (error || list.length === 0) reject(new CollectionError('dns-lookup-failed'));
      else resolve(list);
    });
  });
}

/**
 * Resolves the proof host once and answers the address to connect to: every address it resolved must be
 * public (not loopback, private, shared CGNAT, link-local, cloud metadata, unique-local, multicast or
 * reserved, in IPv4 or IPv6, IPv4-mapped and translated forms included) or covered by `allowed`; otherwise
 * `address-not-allowed`, before any connection.
 */
export async function checkedProofAddress(
  hostName: string,
  transport: ProofTransport,
  allowed: readonly string[],
): Promise<LookupAddress> {
  const addresses = await resolveOnce(hostName, transport);
  const refused = addresses.some(
    (entry) => internalAddressClass(entry.address) !== undefined && !allowListCovers(allowed, entry.address),
  );
  if (refused) throw new CollectionError('address-not-allowed');
  return addresses[0]!;
}

/**
 * Fetches an HTTP file proof: `https://<domain><path>`; redirects are followed only to the same host over
 * HTTPS (at most `maxRedirects`), a redirect elsewhere is refused with `redirect-to-other-host`. The domain
 * is resolved once and checked (`checkedProofAddress`); every request of the fetch connects to that address,
 * with the domain as TLS server name and Host. Answers the body text for a 200, null for a 404 or 410, and
 * refuses any other status (`http-status-<code>`).
 */
export async function fetchHttpFileProof(
  domainName: string,
  path: string,
  limits: { maxBytes: number; timeoutMs: number; maxRedirects: number; allowedAddresses: readonly string[] },
  transport: ProofTransport,
): Promise<string | null> {
  const deadline = Date.now() + limits.timeoutMs;
  let url = new URL(`https://${domainName}${path}`);
  const pinnedAddress = await checkedProofAddress(url.hostname, transport, limits.allowedAddresses);
  for (let hop = 0; ; hop++) {
    const response = await boundedRequest(url, {
      maxBytes: limits.maxBytes,
      deadline,
      transport,
      pinnedAddress,
      port: transport.httpFilePort ?? 443,
    });
    if (response.status >= 300 && response.status < 400 && response.location) {
      const next = new URL(response.location, url);
      if (next.protocol !== 'https:' || next.hostname.toLowerCase() !== domainName) {
        throw new CollectionError('redirect-to-other-host');
      }
      if (hop >= limits.maxRedirects) throw new CollectionError('too-many-redirects');
      url = next;
      continue;
    }
    if (response.status === 404 || response.status === 410) return null;
    if (response.status !== 200) throw new CollectionError(`http-status-${response.status}`);
    return response.body.toString('utf8');
  }
}

/**
 * Reads the TXT records of `name` through a DNS-over-HTTPS resolver: RFC 8484 wire format (`wire`: GET
 * with `?dns=<base64url>`; `wire-post`: POST of `application/dns-message`) or the JSON API (`json`:
 * `?name=&type=TXT`, `application/dns-json`). The system resolver is never used. Answers the TXT strings
 * (segments of one record joined); an NXDOMAIN answers an empty list.
 */
export async function resolveTxtOverHttps(
  resolverUrl: string,
  format: 'wire' | 'wire-post' | 'json',
  name: string,
  limits: { maxBytes: number; timeoutMs: number },
  transport: ProofTransport,
): Promise<string[]> {
  const deadline = Date.now() + limits.timeoutMs;
  const url = new URL(resolverUrl);
  if (format === 'json') {
    url.searchParams.set('name', name);
    url.searchParams.set('type', 'TXT');
    const response = await boundedRequest(url, {
      headers: { accept: 'application/dns-json' },
      maxBytes: limits.maxBytes,
      deadline,
      transport,
    });
    if (response.status !== 200) throw new CollectionError(`resolver-status-${response.status}`);
    let parsed: { Status?: number; Answer?: Array<{ type?: number; data?: string }> };
    try {
      parsed = JSON.parse(response.body.toString('utf8')) as typeof parsed;
    } catch {
      throw new CollectionError('resolver-answer-invalid');
    }
    if (parsed.Status === 3) return [];
    if (parsed.Status !== 0) throw new CollectionError(`resolver-rcode-${parsed.Status ?? 'missing'}`);
    return (parsed.Answer ?? [])
      .filter((answer) => answer.type === 16 && typeof answer.data === 'string')
      .map((answer) => joinJsonTxt(answer.data!));
  }
  const query = dnsPacket.encode({
    type: 'query',
    id: 0,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: 'TXT', name }],
  });
  const headers = { accept: 'application/dns-message' };
  let response: BoundedResponse;
  if (format === 'wire') {
    url.searchParams.set('dns', query.toString('base64url'));
    response = await boundedRequest(url, { headers, maxBytes: limits.maxBytes, deadline, transport });
  } else {
    response = await boundedRequest(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/dns-message',
        'content-length': String(query.length),
      },
      body: query,
      maxBytes: limits.maxBytes,
      deadline,
      transport,
    });
  }
  if (response.status !== 200) throw new CollectionError(`resolver-status-${response.status}`);
  let packet: ReturnType<typeof dnsPacket.decode>;
  try {
    packet = dnsPacket.decode(response.body);
  } catch {
    throw new CollectionError('resolver-answer-invalid');
  }
  const rcode = (packet as { rcode?: string }).rcode;
  if (rcode === 'NXDOMAIN') return [];
  if (rcode && rcode !== 'NOERROR') throw new CollectionError(`resolver-rcode-${rcode}`);
  const texts: string[] = [];
  for (const answer of packet.answers ?? []) {
    if (answer.type !== 'TXT') continue;
    const data = answer.data as Buffer | Buffer[] | string | string[];
    const parts = Array.isArray(data) ? data : [data];
    texts.push(parts.map((part) => (typeof part === 'string' ? part : part.toString('utf8'))).join(''));
  }
  return texts;
}

/** `"a" "b"` (the JSON API's presentation of a TXT record) to `ab`; an unquoted value is kept. */
function joinJsonTxt(data: string): string {
  const segments = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) =>
    match[1].replace(/\\(.)/g, '$1'),
  );
  return segments.length > 0 ? segments.join('') : data;
}
