import type { DependencyCheckResult } from '@corekit/abstractions';
import { readCertificateFile } from './certificate-file';
import { formatHostPort } from './connect-tcp';
import { healthy, unhealthy } from './probe-results';

/** `host:port/database` (`host:port` without a database): how SQL probes name their target in messages. */
export function databaseTarget(host: string, port: number, database?: string): string {
  return `${formatHostPort(host, port)}${database ? `/${database}` : ''}`;
}

/**
 * The verifying half of a SQL probe's TLS options: the chain is checked (`rejectUnauthorized`), against
 * the SslRootCertificate file when one is set (read at run time, its path named in the error).
 */
export async function verifyingTlsOptions(
  sslRootCertificate: string | undefined,
  entryPath: string,
): Promise<{ rejectUnauthorized: true; ca?: string }> {
  const ca =
    sslRootCertificate === undefined
      ? undefined
      : await readCertificateFile(sslRootCertificate, `${entryPath}:SslRootCertificate`);
  return { rejectUnauthorized: true, ...(ca !== undefined ? { ca } : {}) };
}

/** What a SQL probe learned from one successful health query. */
export interface HealthQueryOutcome {
  readonly serverVersion?: string | undefined;
  readonly tls: boolean;
  readonly rowCount: number;
}

/** Healthy: `<query> succeeded on <target>`, with the server version (when known), TLS use and row count. */
export function healthQuerySucceeded(
  healthQuery: string,
  where: string,
  outcome: HealthQueryOutcome,
): DependencyCheckResult {
  return healthy(`${healthQuery} succeeded on ${where}`, {
    ...(outcome.serverVersion ? { serverVersion: outcome.serverVersion } : {}),
    tls: outcome.tls,
    rowCount: outcome.rowCount,
  });
}

/** Unhealthy AUTHENTICATION_FAILED naming the user and the keys to check (`hint` adds to the advice). */
export function authenticationFailed(
  where: string,
  username: string,
  message: string,
  entryPath: string,
  hint = '',
): DependencyCheckResult {
  return unhealthy(
    'AUTHENTICATION_FAILED',
    `${where} refused the login of "${username}": ${message}. Check ${entryPath}:Username and ${entryPath}:Password${hint}.`,
  );
}

/** Unhealthy DATABASE_NOT_FOUND pointing at the Database key. */
export function databaseNotFound(where: string, message: string, entryPath: string): DependencyCheckResult {
  return unhealthy('DATABASE_NOT_FOUND', `${where}: ${message}. Check ${entryPath}:Database.`);
}

/** Unhealthy TLS_REQUIRED: the server refused a plain connection; `advice` names the SslMode values to set. */
export function tlsRequired(
  where: string,
  message: string,
  entryPath: string,
  advice: string,
): DependencyCheckResult {
  return unhealthy(
    'TLS_REQUIRED',
    `${where} accepts only TLS connections: ${message}. Set ${entryPath}:SslMode to ${advice}.`,
  );
}
