import oracledb from 'oracledb';
import type { DependencyCheckResult } from '@corekit/abstractions';
import {
  abortable,
  describeError,
  healthy,
  unhealthy,
  type ProbeDefinition,
  type ProbeEntry,
  withTrackedSockets,
} from '@corekit/probe-kit';
import {
  oracleConnectString,
  oracleHealthEntryShape,
  validateOracleHealthEntry,
} from './oracle-health-options';

type OracleHealthEntry = ProbeEntry<typeof oracleHealthEntryShape>;

/** host:port/service for Host entries; for a ConnectionString its Easy Connect form without parameters, or the descriptor's HOST, PORT and SERVICE_NAME. */
function describeOracleTarget(entry: OracleHealthEntry): string {
  const text = oracleConnectString(entry);
  if (text.startsWith('(')) {
    const value = (key: string) => new RegExp(`\\(\\s*${key}\\s*=\\s*([^()]*?)\\s*\\)`, 'i').exec(text)?.[1];
    return `${value('HOST') ?? '?'}:${value('PORT') ?? '1521'}/${value('SERVICE_NAME') ?? value('SID') ?? ''}`;
  }
  return text.replace(/\?.*$/, '');
}

function isTls(connectString: string): boolean {
  return /^tcps:\/\//i.test(connectString) || /\(\s*PROTOCOL\s*=\s*TCPS\s*\)/i.test(connectString);
}

interface OracleError {
  code?: unknown;
  message?: unknown;
}

/** Maps an ORA- or NJS- error to a result naming the key to fix. */
function oracleFailure(error: unknown, entry: OracleHealthEntry, entryPath: string): DependencyCheckResult {
  const { code, message } = (error ?? {}) as OracleError;
  const text = (typeof message === 'string' ? message : String(error))
    .split('\n')[0]!
    .replace(/\s*\(CONNECTION_ID=[^)]*\)/, '');
  const where = entry.ConnectionString ? `${entryPath}:ConnectionString` : `${entryPath}:ServiceName`;
  switch (code) {
    case 'ORA-01017':
    case 'ORA-28000':
    case 'ORA-01005':
      return unhealthy(
        'AUTHENTICATION_FAILED',
        `Oracle refused the login of user "${entry.Username}" (${text}). Check ${entryPath}:Username and ${entryPath}:Password.`,
      );
    case 'ORA-28001':
      return unhealthy(
        'PASSWORD_EXPIRED',
        `The password of Oracle user "${entry.Username}" has expired (${text}). Change it, then update ${entryPath}:Password.`,
      );
    case 'NJS-518':
    case 'NJS-519':
      return unhealthy(
        'SERVICE_NOT_REGISTERED',
        `The Oracle listener does not know the requested service (${text}). Check ${where}, and that the database is open and registered with the listener.`,
      );
    case 'NJS-511':
      return unhealthy(
        'LISTENER_REFUSED',
        `The Oracle listener refused the connection (${(typeof message === 'string' ? message : '').replace(/\s*\(CONNECTION_ID=[^)]*\)/, '').replace(/\n/g, ' ')}). Check the listener and the database's services.`,
      );
    default:
      break;
  }
  if (typeof code === 'string' && /^NJS-50[0-3]$|^NJS-521$/.test(code)) {
    // Socket-level failures keep the system error only in the text ("... Error: connect ECONNREFUSED 127.0.0.1:1521").
    const described = describeError({ message: typeof message === 'string' ? message : '' });
    if (described.code !== 'PROBE_FAILED') return unhealthy(described.code, described.message);
    return unhealthy(
      'UNAVAILABLE',
      `Oracle could not be reached (${text}). Check ${entry.ConnectionString ? `${entryPath}:ConnectionString` : `${entryPath}:Host and ${entryPath}:Port`}.`,
    );
  }
  if (typeof code === 'string' && code.startsWith('ORA-')) {
    return unhealthy(
      'QUERY_FAILED',
      `Oracle rejected the health query (${text}). Check ${entryPath}:HealthQuery.`,
    );
  }
  const described = describeError(error);
  return unhealthy(described.code, described.message);
}

async function runHealthQuery(
  entry: OracleHealthEntry,
  connectString: string,
  timeoutSeconds: number,
): Promise<DependencyCheckResult> {
  let connection: oracledb.Connection | undefined;
  try {
    connection = await oracledb.getConnection({
      user: entry.Username,
      password: entry.Password,
      connectString,
      connectTimeout: timeoutSeconds,
      transportConnectTimeout: timeoutSeconds,
      retryCount: 0,
    });
    const result = await connection.execute(entry.HealthQuery, [], { outFormat: oracledb.OUT_FORMAT_ARRAY });
    return healthy('Oracle answered the health query', {
      rows: result.rows?.length ?? 0,
      ...(connection.oracleServerVersionString
        ? { serverVersion: connection.oracleServerVersionString }
        : {}),
    });
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

/** The Oracle probe: one dedicated thin-mode connection (no pool) logs in, runs HealthQuery, and closes. */
export const oracleHealthProbe: ProbeDefinition<typeof oracleHealthEntryShape> = {
  kind: 'Oracle',
  entryShape: oracleHealthEntryShape,
  validateEntry: validateOracleHealthEntry,
  describeTarget: describeOracleTarget,
  async check(entry, context) {
    const connectString = oracleConnectString(entry);
    const timeoutSeconds = Math.max(1, Math.ceil(context.timeoutMs / 1000));
    const tracked = withTrackedSockets(() => runHealthQuery(entry, connectString, timeoutSeconds), {
      tls: isTls(connectString),
    });
    try {
      return await abortable(tracked.result, context.signal, () => tracked.sockets.destroy());
    } catch (error) {
      if (context.signal.aborted) throw error;
      return oracleFailure(error, entry, context.entryPath);
    }
  },
};
