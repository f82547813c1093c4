import { checkServerIdentity, type TLSSocket } from 'node:tls';
import mysql, { type Connection, type ConnectionOptions } from 'mysql2';
import { CoreError } from '@corekit/abstractions';
import {
  abortable,
  authenticationFailed,
  databaseNotFound,
  databaseTarget,
  healthQuerySucceeded,
  tlsRequired,
  unhealthy,
  verifyingTlsOptions,
  type ProbeContext,
  type ProbeDefinition,
} from '@corekit/probe-kit';
import {
  mySqlConnectionStringPassword,
  resolveMySqlConnection,
  validateMySqlConnection,
  type MySqlConnectionSettings,
} from './mysql-connection-settings';
import { mySqlHealthEntryShape } from './mysql-health-options';
import { publicKeyRetrievalGuard } from './mysql-public-key-guard';

/** CLIENT_SSL in the server's capability flags: the server offers TLS. */
const clientSslCapability = 0x800;

interface MySqlError {
  code?: string;
  errno?: number;
  sqlState?: string;
  message: string;
}

function target(settings: MySqlConnectionSettings): string {
  return databaseTarget(settings.host, settings.port, settings.database);
}

async function tlsOptions(
  settings: MySqlConnectionSettings,
  entryPath: string,
): Promise<Record<string, unknown> | undefined> {
  if (settings.sslMode === 'None') return undefined;
  if (settings.sslMode === 'Preferred' || settings.sslMode === 'Required')
    return { rejectUnauthorized: false };
  return {
    ...(await verifyingTlsOptions(settings.sslRootCertificate, entryPath)),
    verifyIdentity: settings.sslMode === 'VerifyFull',
  };
}

/**
 * Preferred on one connection: mysql2 reads `config.ssl` only after the server's greeting, whose capability
 * flags it stores first; answering from those flags upgrades to TLS exactly when the server offers it.
 */
function preferTls(connection: Connection, tls: Record<string, unknown>): void {
  const state = connection as unknown as { serverCapabilityFlags?: number; config: Record<string, unknown> };
  Object.defineProperty(state.config, 'ssl', {
    configurable: true,
    enumerable: true,
    get: () => (((state.serverCapabilityFlags ?? 0) & clientSslCapability) !== 0 ? tls : undefined),
  });
}

/**
 * mysql2 checks the certificate's names only for a host name; for an IP address Node compares it with
 * "localhost". VerifyFull therefore checks the configured host against the certificate itself, right after
 * the handshake (whose chain was already verified) and before the health query.
 */
function verifyHostName(connection: Connection, host: string): void {
  const stream = (connection as unknown as { stream?: TLSSocket }).stream;
  const failure =
    stream && typeof stream.getPeerCertificate === 'function'
      ? checkServerIdentity(host, stream.getPeerCertificate())
      : undefined;
  if (failure) throw Object.assign(failure, { code: 'HANDSHAKE_SSL_ERROR' });
}

function promised<T>(start: (callback: (error: unknown, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) =>
    start((error, value) => (error ? reject(error) : resolve(value as T))),
  );
}

async function connectAndQuery(
  settings: MySqlConnectionSettings,
  healthQuery: string,
  context: ProbeContext,
  onKeyRefused: () => void,
) {
  const tls = await tlsOptions(settings, context.entryPath);
  const options: ConnectionOptions = {
    host: settings.host,
    port: settings.port,
    user: settings.username,
    password: settings.password ?? '',
    ...(settings.database !== undefined ? { database: settings.database } : {}),
    connectTimeout: context.timeoutMs,
    ...(tls && settings.sslMode !== 'Preferred' ? { ssl: tls } : {}),
    ...(settings.allowPublicKeyRetrieval
      ? {}
      : {
          authPlugins: publicKeyRetrievalGuard(
            context.entryPath,
            onKeyRefused,
          ) as ConnectionOptions['authPlugins'],
        }),
  };
  const connection = mysql.createConnection(options);
  if (tls && settings.sslMode === 'Preferred') preferTls(connection, tls);
  // Failures reject the pending call; without a listener mysql2 would throw them.
  connection.on('error', () => undefined);
  const destroy = () => connection.destroy();
  let stage = 'connect';
  let failed = true;
  try {
    await abortable(
      promised<void>((callback) => connection.connect((error) => callback(error))),
      context.signal,
      destroy,
    );
    if (settings.sslMode === 'VerifyFull') verifyHostName(connection, settings.host);
    stage = 'query';
    const [rows] = await abortable(
      promised<[unknown]>((callback) =>
        connection.query(healthQuery, (error, result) => callback(error, [result])),
      ),
      context.signal,
      destroy,
    );
    failed = false;
    const state = connection as unknown as {
      stream?: { encrypted?: boolean };
      _handshakePacket?: { serverVersion?: string };
    };
    return {
      rowCount: Array.isArray(rows) ? rows.length : 0,
      tls: state.stream?.encrypted === true,
      serverVersion: state._handshakePacket?.serverVersion,
    };
  } catch (error) {
    throw Object.assign(error as object, { probeStage: stage });
  } finally {
    if (failed) destroy();
    else
      await abortable(
        promised<void>((callback) => connection.end((error) => callback(error))),
        context.signal,
        destroy,
      ).catch(destroy);
  }
}

/**
 * The MySQL / MariaDB probe: a dedicated mysql2 connection per run (never a pool) logs in with the configured
 * TLS mode, runs HealthQuery and quits; the socket is destroyed when the engine aborts the run.
 */
export const mySqlHealthProbe: ProbeDefinition<typeof mySqlHealthEntryShape> = {
  kind: 'MySql',
  entryShape: mySqlHealthEntryShape,
  validateEntry: validateMySqlConnection,
  describeTarget: (entry) => target(resolveMySqlConnection(entry)),
  secretValues: (entry) => [mySqlConnectionStringPassword(entry) ?? ''],
  async check(entry, context) {
    const settings = resolveMySqlConnection(entry);
    const where = target(settings);
    const path = context.entryPath;
    let keyRefused = false;
    try {
      const outcome = await connectAndQuery(settings, entry.HealthQuery, context, () => (keyRefused = true));
      return healthQuerySucceeded(entry.HealthQuery, where, outcome);
    } catch (caught) {
      const error = caught as MySqlError;
      if (keyRefused) return unhealthy('PUBLIC_KEY_RETRIEVAL_NOT_ALLOWED', error.message);
      if (caught instanceof CoreError && caught.code !== 'ABORTED')
        return unhealthy(caught.code, caught.message);
      switch (error.code) {
        case 'ER_ACCESS_DENIED_ERROR':
        case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
        case 'ER_NOT_SUPPORTED_AUTH_MODE':
          return authenticationFailed(
            where,
            settings.username,
            error.message,
            path,
            settings.sslMode === 'None' ? `, and whether the account requires TLS (${path}:SslMode)` : '',
          );
        case 'ER_SECURE_TRANSPORT_REQUIRED':
          return tlsRequired(where, error.message, path, 'Preferred or stronger');
        case 'ER_BAD_DB_ERROR':
          return databaseNotFound(where, error.message, path);
        case 'ER_DBACCESS_DENIED_ERROR':
          return unhealthy(
            'DATABASE_ACCESS_DENIED',
            `${where}: ${error.message}. Grant the account access, or check ${path}:Database.`,
          );
        case 'HANDSHAKE_NO_SSL_SUPPORT':
          return unhealthy(
            'TLS_NOT_SUPPORTED',
            `${where} does not offer TLS, and SslMode ${settings.sslMode} requires it. Enable TLS on the server, or set ${path}:SslMode to Preferred or None.`,
          );
        case 'HANDSHAKE_SSL_ERROR':
          return unhealthy(
            'TLS_HANDSHAKE_FAILED',
            `The TLS handshake with ${where} failed: ${error.message}. Check the server certificate, ${path}:SslRootCertificate and ${path}:SslMode.`,
          );
        default:
          break;
      }
      if (error.sqlState !== undefined && (caught as { probeStage?: string }).probeStage === 'query') {
        return unhealthy(
          'HEALTH_QUERY_FAILED',
          `The health query failed on ${where}: ${error.message} (${error.code ?? 'error'} ${error.errno ?? ''}). Check ${path}:HealthQuery and the account's privileges.`.replace(
            ' )',
            ')',
          ),
        );
      }
      throw caught;
    }
  },
};
