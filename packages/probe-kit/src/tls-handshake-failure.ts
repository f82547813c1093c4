import type { DependencyCheckResult } from '@corekit/abstractions';
import { unhealthy } from './probe-results';

/**
 * The Unhealthy result of a failed TLS handshake: Node's code is kept (`DEPTH_ZERO_SELF_SIGNED_CERT`,
 * `ERR_TLS_CERT_ALTNAME_INVALID`...) and the message names `serverNamePath`, the full key path of the field
 * that sets the name the certificate must carry (`...:Dependencies:0:TlsServerName`), and how to trust a
 * private CA.
 */
export function tlsHandshakeFailure(
  error: unknown,
  where: string,
  serverNamePath: string,
): DependencyCheckResult {
  const code = (error as { code?: unknown } | null)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  return unhealthy(
    typeof code === 'string' && code ? code : 'TLS_HANDSHAKE_FAILED',
    `The TLS handshake with ${where} failed (${detail}). Check ${serverNamePath} against the names in the server certificate, and that its issuing CA is trusted (add a private CA with NODE_EXTRA_CA_CERTS).`,
  );
}
