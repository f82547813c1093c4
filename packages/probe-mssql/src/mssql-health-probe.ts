import { Connection, Request, type ConnectionConfiguration } from 'tedious';
import type { DependencyCheckResult } from '@corekit/abstractions';
import {
  abortable,
  describeError,
  formatHostPort,
  healthy,
  unhealthy,
  type ProbeDefinition,
  type ProbeEntry,
} from '@corekit/probe-kit';
import { mssqlHealthEntryShape, validateMssqlHealthEntry } from './mssql-health-options';
import { readSqlServerConnectionString } from './sql-server-connection-string';

type MssqlHealthEntry = ProbeEntry<typeof mssqlHealthEntryShape>;

/** One entry resolved to what tedious needs: ConnectionString settings first, the separate fields for the rest. */
interface ResolvedTarget {
  readonly host: string;
  readonly port: number;
  readonly instanceName?: string;
  readonly database?: string;
  readonly username: string;
  readonly password: string;
  readonly encrypt: boolean | 'strict';
  readonly trustServerCertificate: boolean;
}

function resolveTarget(entry: MssqlHealthEntry): ResolvedTarget {
  const settings = entry.ConnectionString ? readSqlServerConnectionString(entry.ConnectionString) : {};
  const [fieldHost = '', fieldInstance] = (entry.Host ?? '').split('\\');
  const instanceName = settings.instanceName ?? (settings.host ? undefined : fieldInstance);
  const database = settings.database ?? entry.Database;
  return {
    host: settings.host ?? fieldHost,
    port: settings.port ?? entry.Port,
    ...(instanceName ? { instanceName } : {}),
    ...(database ? { database } : {}),
    username: settings.username ?? entry.Username ?? '',
    password: settings.password ?? entry.Password ?? '',
    encrypt: settings.encrypt ?? entry.Encrypt,
    trustServerCertificate: settings.trustServerCertificate ?? entry.TrustServerCertificate,
  };
}

function describeMssqlTarget(entry: MssqlHealthEntry): string {
  const target = resolveTarget(entry);
  const place = target.instanceName
    ? `${target.host}\\${target.instanceName}`
    : formatHostPort(target.host, target.port);
  return `${place}${target.database ? `/${target.database}` : ''}`;
}

/** A server message (ERROR token) seen during the run: number and text, as SQL Server sent them. */
interface ServerMessage {
  readonly number: number;
  readonly message: string;
}

function connect(connection: Connection): Promise<void> {
  return new Promise((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
}

function runBatch(connection: Connection, sql: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = new Request(sql, (error, rowCount) => (error ? reject(error) : resolve(rowCount ?? 0)));
    connection.execSqlBatch(request);
  });
}

const tediousCodes = new Set([
  'ESOCKET',
  'ETIMEOUT',
  'EINSTLOOKUP',
  'ELOGIN',
  'EREQUEST',
  'ECANCEL',
  'ECLOSE',
  'EINVALIDSTATE',
]);

/** The first Node system error (ECONNREFUSED, ENOTFOUND...) inside an error's `cause` / `errors` chain. */
function systemError(error: unknown, depth = 0): { code: string } | undefined {
  if (!error || typeof error !== 'object' || depth > 4) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && /^E[A-Z_]+$/.test(code) && !tediousCodes.has(code))
    return error as { code: string };
  for (const inner of [...(Array.isArray(errors) ? errors : []), cause]) {
    const found = systemError(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function failure(
  error: unknown,
  messages: readonly ServerMessage[],
  target: ResolvedTarget,
  entry: MssqlHealthEntry,
  entryPath: string,
): DependencyCheckResult {
  const { code, number, message } = (error ?? {}) as { code?: unknown; number?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  const source = entry.ConnectionString ? `${entryPath}:ConnectionString` : undefined;
  const keys = (...fields: string[]) =>
    source ?? fields.map((field) => `${entryPath}:${field}`).join(' and ');
  const reasons = messages.map((item) => `error ${item.number}: ${item.message}`).join('; ');
  if (code === 'ELOGIN') {
    if (messages.some((item) => item.number === 4060)) {
      return unhealthy(
        'DATABASE_UNAVAILABLE',
        `SQL Server could not open database "${target.database ?? ''}" for login "${target.username}" (${reasons}). Check ${keys('Database')} and the login's access to it.`,
      );
    }
    if (messages.some((item) => item.number === 18456) || messages.length === 0) {
      return unhealthy(
        'AUTHENTICATION_FAILED',
        `SQL Server refused the login "${target.username}" (${reasons || text}). Check ${keys('Username', 'Password')}.`,
      );
    }
    return unhealthy('LOGIN_FAILED', `SQL Server refused the login "${target.username}" (${reasons}).`);
  }
  if (code === 'EREQUEST') {
    const detail = typeof number === 'number' ? `error ${number}: ${text}` : text;
    return unhealthy(
      'QUERY_FAILED',
      `SQL Server rejected the health query (${detail}). Check ${entryPath}:HealthQuery.`,
    );
  }
  if (code === 'ESOCKET' || code === 'ETIMEOUT' || code === 'EINSTLOOKUP') {
    // tedious wraps the socket error: ConnectionError ESOCKET, cause AggregateError, errors [ECONNREFUSED...].
    const socketError = systemError(error);
    if (socketError) {
      const described = describeError(socketError);
      return unhealthy(described.code, described.message);
    }
    return unhealthy(
      'UNAVAILABLE',
      `SQL Server could not be reached (${text}). Check ${keys('Host', 'Port')}, Encrypt and TrustServerCertificate, and that the server is running.`,
    );
  }
  const described = describeError(error);
  return unhealthy(described.code, described.message);
}

/** The SQL Server probe: one dedicated tedious connection (no pool) logs in, runs HealthQuery as a SQL batch, and closes. */
export const mssqlHealthProbe: ProbeDefinition<typeof mssqlHealthEntryShape> = {
  kind: 'SqlServer',
  entryShape: mssqlHealthEntryShape,
  validateEntry: validateMssqlHealthEntry,
  describeTarget: describeMssqlTarget,
  async check(entry, context) {
    const target = resolveTarget(entry);
    const configuration: ConnectionConfiguration = {
      server: target.host,
      authentication: { type: 'default', options: { userName: target.username, password: target.password } },
      options: {
        ...(target.instanceName ? { instanceName: target.instanceName } : { port: target.port }),
        ...(target.database ? { database: target.database } : {}),
        encrypt: target.encrypt,
        trustServerCertificate: target.trustServerCertificate,
        connectTimeout: context.timeoutMs,
        requestTimeout: context.timeoutMs,
        maxRetriesOnTransientErrors: 0,
        appName: 'corekit-probe-mssql',
      },
    };
    const connection = new Connection(configuration);
    const messages: ServerMessage[] = [];
    let encrypted = false;
    let database: string | undefined;
    connection.on('errorMessage', (token) => messages.push({ number: token.number, message: token.message }));
    connection.on('secure', () => {
      encrypted = true;
    });
    connection.on('databaseChange', (name) => {
      database = name;
    });
    // Errors also reach the connect and request callbacks; this keeps a late socket error from being unhandled.
    connection.on('error', () => undefined);
    const destroy = () => connection.close();
    try {
      await abortable(connect(connection), context.signal, destroy);
      if (target.encrypt !== false && !encrypted) {
        return unhealthy(
          'ENCRYPTION_NOT_SUPPORTED',
          `SQL Server at ${describeMssqlTarget(entry)} does not support encryption, but Encrypt is true. Enable TLS on the server, or set ${context.entryPath}:Encrypt to false for a trusted network.`,
        );
      }
      const rows = await abortable(runBatch(connection, entry.HealthQuery), context.signal, destroy);
      return healthy(`SQL Server answered the health query${database ? ` on database "${database}"` : ''}`, {
        ...(database ? { database } : {}),
        rows,
        encrypted,
      });
    } catch (error) {
      if (context.signal.aborted) throw error;
      return failure(error, messages, target, entry, context.entryPath);
    } finally {
      connection.close();
    }
  },
};
