import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { RecordedHttpRequest } from './http-fake-server';

/*
 * AWS Signature Version 4, checked the way an AWS endpoint checks it: the fakes of AWS services (SES v2...)
 * rebuild the canonical request from what they received, derive the signing key from the secret they know and
 * compare signatures. Built from AWS's documentation ("Create a signed AWS API request": canonical request,
 * string to sign, signing key), so a client that signs anything else (another body, a header it did not sign, a
 * wrong secret, region or service) is refused.
 */

/** The credentials a fake AWS endpoint knows. */
export interface SigV4Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** When set, requests must carry and sign `x-amz-security-token` with this value. */
  readonly sessionToken?: string;
}

/** What a request must be signed for. */
export interface SigV4Expectation {
  readonly credentials: SigV4Credentials;
  readonly region: string;
  /** The signing name of the service (`ses` for SES v2). */
  readonly service: string;
  /** The largest clock difference accepted (AWS: 5 minutes). */
  readonly maxSkewMs?: number;
  readonly now?: () => number;
}

/** Why a request was refused, in AWS's own error names, or `null` when its signature is valid. */
export type SigV4Refusal = {
  readonly errorType:
    'IncompleteSignatureException' | 'UnrecognizedClientException' | 'SignatureDoesNotMatch';
  readonly message: string;
} | null;

const authorizationPattern =
  /^AWS4-HMAC-SHA256 Credential=([^/\s,]+)\/(\d{8})\/([^/\s,]+)\/([^/\s,]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 percent-encoding, as SigV4 asks for path segments and query components. */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The canonical request of a received request, over the headers the client said it signed. */
export function canonicalRequestOf(request: RecordedHttpRequest, signedHeaders: readonly string[]): string {
  const path = request.path.split('/').map(uriEncode).join('/') || '/';
  const query = Object.entries(request.query)
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headerValue = (name: string) => {
    const value = request.headers[name];
    const text = Array.isArray(value) ? value.join(',') : (value ?? '');
    return text.trim().replace(/\s+/g, ' ');
  };
  const headers = signedHeaders.map((name) => `${name}:${headerValue(name)}\n`).join('');
  const payloadHash =
    (request.headers['x-amz-content-sha256'] as string | undefined) ?? sha256Hex(request.bytes);
  return [request.method, path, query, headers, signedHeaders.join(';'), payloadHash].join('\n');
}

/** Checks the SigV4 `Authorization` header of `request`; `null` when valid. */
export function verifySigV4(request: RecordedHttpRequest, expected: SigV4Expectation): SigV4Refusal {
  const match = authorizationPattern.exec(String(request.headers.authorization ?? ''));
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  if (!match || !/^\d{8}T\d{6}Z$/.test(amzDate))
    return {
      errorType: 'IncompleteSignatureException',
      message: 'Authorization header or X-Amz-Date missing or malformed',
    };
  const [, accessKeyId, date, region, service, signedHeaderList, signature] = match as unknown as string[];
  if (accessKeyId !== expected.credentials.accessKeyId)
    return {
      errorType: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  const signedHeaders = signedHeaderList!.split(';');
  const mustSign = [
    'host',
    'x-amz-date',
    ...(expected.credentials.sessionToken ? ['x-amz-security-token'] : []),
  ];
  const unsigned = mustSign.filter((name) => !signedHeaders.includes(name));
  if (unsigned.length > 0)
    return {
      errorType: 'IncompleteSignatureException',
      message: `Headers not signed: ${unsigned.join(', ')}`,
    };
  if (
    expected.credentials.sessionToken &&
    request.headers['x-amz-security-token'] !== expected.credentials.sessionToken
  )
    return {
      errorType: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  const signedAt = Date.parse(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13)}`,
  );
  const skew = Math.abs((expected.now ?? Date.now)() - signedAt);
  if (date !== amzDate.slice(0, 8) || region !== expected.region || service !== expected.service)
    return {
      errorType: 'SignatureDoesNotMatch',
      message: `Credential should be scoped to ${expected.region}/${expected.service}`,
    };
  if (Number.isNaN(signedAt) || skew > (expected.maxSkewMs ?? 5 * 60_000))
    return {
      errorType: 'SignatureDoesNotMatch',
      message: 'Signature expired: the request time is too far from the server time',
    };
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope,
    sha256Hex(canonicalRequestOf(request, signedHeaders)),
  ].join('\n');
  let key: Buffer = hmac(`AWS4${expected.credentials.secretAccessKey}`, date!);
  for (const part of [region!, service!, 'aws4_request']) key = hmac(key, part);
  const expectedSignature = Buffer.from(createHmac('sha256', key).update(stringToSign).digest('hex'));
  if (!timingSafeEqual(expectedSignature, Buffer.from(signature!)))
    return {
      errorType: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided.',
    };
  return null;
}
