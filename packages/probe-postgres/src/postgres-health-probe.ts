import type { ConnectionOptions } from 'node:tls';
import pg from 'pg';
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
import { postgresHealthEntryShape } from './postgres-health-options';
import {
  postgresConnectionStringPassword,
  resolvePostgresConnection,
  validatePostgresConnection,
  type PostgresConnectionSettings,
} from './postgres-connection-settings';

/** pg's message when the server answers the SSLRequest with N. */
const noTlsMessage = 'The server does not support SSL connections';

/** A server error (pg's DatabaseError) carries the SQLSTATE in `code` and the severity. */
function sqlState(error: unknown): string | undefined {
  const candidate = error as { code?: unknown; severity?: unknown };
  return typeof candidate?.code === 'string' && typeof candidate.severity === 'string'
    ? candidate.code
    : undefined;
}

function target(settings: PostgresConnectionSettings): string {
  return databaseTarget(settings.host, settings.port, settings.database);
}

async function tlsOptions(
  settings: PostgresConnectionSettings,
  entryPath: string,
): Promise<ConnectionOptions> {
  if (settings.sslMode !== 'VerifyCA' && settings.sslMode !== 'VerifyFull')
    return { rejectUnauthorized: false };
  return {
    ...(await verifyingTlsOptions(settings.sslRootCertificate, entryPath)),
    ...(settings.sslMode === 'VerifyCA' ? { checkServerIdentity: () => undefined } : {}),
  };
}

/** Connects once (TLS when `tls` is set), runs the query, and closes; the result says whether TLS was used. */
async function runOnce(
  settings: PostgresConnectionSettings,
  healthQuery: string,
  tls: ConnectionOptions | false,
  context: ProbeContext,
) {
  const client = new pg.Client({
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.username,
    // Asked for only when the server wants a password; never falls back to PGPASSWORD or ~/.pgpass.
    password: () => {
      if (settings.password === undefined) {
        throw new CoreError(
          'AUTHENTICATION_FAILED',
          `The server asks for a password and none is configured. Set ${context.entryPath}:Password (or Password in its ConnectionString).`,
        );
      }
      return settings.password;
    },
    ssl: tls,
    ...(settings.applicationName !== undefined ? { application_name: settings.applicationName } : {}),
  });
  let serverVersion: string | undefined;
  client.connection.on('parameterStatus', (message: { parameterName: string; parameterValue: string }) => {
    if (message.parameterName === 'server_version') serverVersion = message.parameterValue;
  });
  // Errors after connect also reject the pending call; without a listener pg would crash the process.
  client.on('error', () => undefined);
  const destroy = () => client.connection.stream.destroy();
  let stage = 'connect';
  try {
    await abortable(client.connect(), context.signal, destroy);
    stage = 'query';
    const result = await abortable(client.query(healthQuery), context.signal, destroy);
    return { rowCount: result.rowCount ?? 0, serverVersion, tls: tls !== false };
  } catch (error) {
    throw Object.assign(error as object, { probeStage: stage });
  } finally {
    // end() waits for the server to close the session; an abort cuts that wait short and destroys the socket.
    await abortable(client.end(), context.signal, destroy).catch(() => undefined);
  }
}

async function connectAndQuery(
  settings: PostgresConnectionSettings,
  healthQuery: string,
  context: ProbeContext,
) {
  switch (settings.sslMode) {
    case 'Disable':
      return runOnce(settings, healthQuery, false, context);
    case 'Allow':
      try {
        return await runOnce(settings, healthQuery, false, context);
      } catch (error) {
        if (sqlState(error) !== '28000' || !/no encryption|SSL off/i.test((error as Error).message))
          throw error;
        return runOnce(settings, healthQuery, { rejectUnauthorized: false }, context);
      }
    case 'Prefer':
      try {
        return await runOnce(settings, healthQuery, { rejectUnauthorized: false }, context);
      } catch (error) {
        if ((error as Error).message !== noTlsMessage) throw error;
        return runOnce(settings, healthQuery, false, context);
      }
    default:
      return runOnce(settings, healthQuery, await tlsOptions(settings, context.entryPath), context);
  }
}

/**
 * The PostgreSQL probe: a dedicated `pg.Client` per run (never a pool) connects with the configured TLS mode,
 * runs HealthQuery and ends the session; the socket is destroyed when the engine aborts the run.
 */
export const postgresHealthProbe: ProbeDefinition<typeof postgresHealthEntryShape> = {
  kind: 'PostgreSql',
  entryShape: postgresHealthEntryShape,
  validateEntry: validatePostgresConnection,
  describeTarget: (entry) => target(resolvePostgresConnection(entry)),
  secretValues: (entry) => [postgresConnectionStringPassword(entry) ?? ''],
  async check(entry, context) {
    const settings = resolvePostgresConnection(entry);
    const where = target(settings);
    const path = context.entryPath;
    try {
      const outcome = await connectAndQuery(settings, entry.HealthQuery, context);
      return healthQuerySucceeded(entry.HealthQuery, where, outcome);
    } catch (error) {
      if (error instanceof CoreError && error.code === 'AUTHENTICATION_FAILED')
        return unhealthy(error.code, error.message);
      const state = sqlState(error);
      const message = error instanceof Error ? error.message : String(error);
      if (state === '28000' && /no encryption|SSL off/i.test(message)) {
        return tlsRequired(where, message, path, 'Require, VerifyCA or VerifyFull');
      }
      if (state === '28000' || state === '28P01') {
        return authenticationFailed(where, settings.username, message, path);
      }
      if (state === '3D000') {
        return databaseNotFound(where, message, path);
      }
      if (message === noTlsMessage) {
        return unhealthy(
          'TLS_NOT_SUPPORTED',
          `${where} does not offer TLS, and SslMode ${settings.sslMode} requires it. Enable ssl on the server, or set ${path}:SslMode to Prefer or Disable.`,
        );
      }
      if (state !== undefined && (error as { probeStage?: string }).probeStage === 'query') {
        return unhealthy(
          'HEALTH_QUERY_FAILED',
          `The health query failed on ${where}: ${message} (SQLSTATE ${state}). Check ${path}:HealthQuery and the role's privileges.`,
        );
      }
      throw error;
    }
  },
};
