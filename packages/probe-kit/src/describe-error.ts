import { stripUrlCredentials } from './secret-redaction';

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  name?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  statusCode?: unknown;
  status?: unknown;
  errors?: unknown;
  cause?: unknown;
}

const tlsCodes = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/**
 * True for the codes of a failed TLS handshake or certificate check: Node's certificate verification codes
 * (`DEPTH_ZERO_SELF_SIGNED_CERT`, `CERT_HAS_EXPIRED`...), `ERR_TLS_*` and OpenSSL's `ERR_SSL_*`.
 */
export function isTlsErrorCode(code: unknown): boolean {
  return (
    typeof code === 'string' &&
    (tlsCodes.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || /CERT/.test(code))
  );
}

const systemCodeInText =
  /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EPIPE|EHOSTUNREACH|ENETUNREACH)\b(?:\s+(\[[0-9a-f:]+\]:\d+|[\w.-]+:\d+|[\w.-]+))?/i;

function firstCoded(error: ErrorLike): ErrorLike {
  if (typeof error.code === 'string') return error;
  if (Array.isArray(error.errors)) {
    const coded = error.errors.find((inner) => inner && typeof (inner as ErrorLike).code === 'string');
    if (coded) return coded as ErrorLike;
  }
  if (error.cause && typeof error.cause === 'object') {
    const cause = error.cause as ErrorLike;
    if (typeof cause.code === 'string') return cause;
  }
  return error;
}

function target(error: ErrorLike): string {
  const host =
    typeof error.address === 'string'
      ? error.address
      : typeof error.hostname === 'string'
        ? error.hostname
        : undefined;
  if (!host) return 'the upstream';
  const shown = host.includes(':') ? `[${host}]` : host;
  return typeof error.port === 'number' ? `${shown}:${error.port}` : shown;
}

function httpStatus(error: ErrorLike): number | undefined {
  const status =
    typeof error.statusCode === 'number'
      ? error.statusCode
      : typeof error.status === 'number'
        ? error.status
        : undefined;
  return status !== undefined && status >= 100 && status < 600 ? status : undefined;
}

/**
 * Turns any thrown value into a stable `code` and a message a user can act on. Node system codes are kept
 * (ECONNREFUSED, ENOTFOUND, ETIMEDOUT, ECONNRESET, TLS certificate codes); aborts become ABORTED;
 * authentication failures (HTTP 401/403, driver auth errors) become AUTHENTICATION_FAILED. Credentials in
 * URLs are stripped from the message; callers still scrub known secret values (defineProbe does).
 */
export function describeError(error: unknown): { code: string; message: string } {
  if (error === null || typeof error !== 'object') {
    return { code: 'PROBE_FAILED', message: stripUrlCredentials(`The check failed: ${String(error)}`) };
  }
  const outer = error as ErrorLike;
  const inner = firstCoded(outer);
  const rawMessage =
    typeof outer.message === 'string' && outer.message
      ? outer.message
      : typeof inner.message === 'string'
        ? inner.message
        : '';
  // Drivers that wrap socket errors often keep only the text (`connect ECONNREFUSED 127.0.0.1:9200`).
  const fromText = typeof inner.code === 'string' ? null : systemCodeInText.exec(rawMessage);
  const code = typeof inner.code === 'string' ? inner.code : fromText ? fromText[1] : '';
  const original = stripUrlCredentials(rawMessage);
  const where = fromText?.[2] ? fromText[2] : target(inner);
  const status = httpStatus(outer) ?? httpStatus(inner);

  if (
    code === 'ABORTED' ||
    code === 'ABORT_ERR' ||
    outer.name === 'AbortError' ||
    outer.name === 'TimeoutError'
  ) {
    return {
      code: 'ABORTED',
      message:
        'The check was aborted before the upstream answered (the timeout passed or the engine is stopping); raise TimeoutSeconds if the upstream is slow.',
    };
  }
  switch (code) {
    case 'ECONNREFUSED':
      return {
        code,
        message: `Connection refused by ${where}: nothing listens there. Check that the service is running and that the configured host and port are right.`,
      };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return {
        code,
        message: `The host name ${where} could not be resolved (${code}). Check the configured host name and DNS.`,
      };
    case 'ETIMEDOUT':
      return {
        code,
        message: `Connecting to ${where} timed out. Check network reachability and firewalls, or raise TimeoutSeconds.`,
      };
    case 'ECONNRESET':
    case 'EPIPE':
      return {
        code,
        message: `${where === 'the upstream' ? 'The upstream' : where} closed the connection unexpectedly (${code}). Check that the port speaks the expected protocol and TLS setting.`,
      };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { code, message: `${where} is unreachable (${code}). Check routing and firewalls.` };
    default:
      break;
  }
  if (isTlsErrorCode(code)) {
    return {
      code,
      message: `TLS handshake with ${where} failed (${code}): ${original}. Check the TLS setting, the server certificate and the trusted CA.`,
    };
  }
  if (
    status === 401 ||
    status === 403 ||
    code === 'AUTHENTICATION_FAILED' ||
    /authenticat|unauthori[sz]ed|access denied|password/i.test(original)
  ) {
    return {
      code: 'AUTHENTICATION_FAILED',
      message: `The upstream refused the credentials${status ? ` (HTTP ${status})` : ''}. Check the configured user name, password, token or API key.`,
    };
  }
  if (code) return { code, message: original || `The check failed with ${code}.` };
  return { code: 'PROBE_FAILED', message: original || 'The check failed without an error message.' };
}
