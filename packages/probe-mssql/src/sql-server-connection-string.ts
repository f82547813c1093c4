import { CoreError } from '@corekit/abstractions';
import { connectionStringSetting, parseConnectionString } from '@corekit/probe-kit';

/** What the probe takes from a SQL Server connection string; absent settings stay undefined. */
export interface SqlServerConnectionSettings {
  readonly host?: string;
  readonly port?: number;
  readonly instanceName?: string;
  readonly database?: string;
  readonly username?: string;
  readonly password?: string;
  /** `strict` is TDS 8 (TLS before the first packet, SQL Server 2022 and later). */
  readonly encrypt?: boolean | 'strict';
  readonly trustServerCertificate?: boolean;
}

function invalid(why: string): CoreError {
  return new CoreError('CONNECTION_STRING_INVALID', `The connection string is not valid: ${why}.`);
}

function flag(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  const normalized = value.trim().toLowerCase();
  if (['true', 'yes', 'mandatory'].includes(normalized)) return true;
  if (['false', 'no', 'optional'].includes(normalized)) return false;
  throw invalid(`${name} must be true or false`);
}

/** `tcp:db,1433`, `db\\instance`, `(local)`, `.`: host, port and instance of the Server setting. */
function readServer(value: string): { host: string; port?: number; instanceName?: string } {
  let server = value.trim().replace(/^tcp:/i, '');
  let port: number | undefined;
  const comma = server.lastIndexOf(',');
  if (comma >= 0) {
    port = Number(server.slice(comma + 1).trim());
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw invalid('the port after the comma in Server must be 1-65535');
    server = server.slice(0, comma).trim();
  }
  const [host = '', instanceName] = server.split('\\');
  const resolved = host === '.' || host.toLowerCase() === '(local)' ? 'localhost' : host;
  return {
    host: resolved,
    ...(port !== undefined ? { port } : {}),
    ...(instanceName ? { instanceName } : {}),
  };
}

/**
 * Reads an ADO.NET key=value connection string (`Server`/`Data Source`/`Address`, `Database`/`Initial Catalog`,
 * `User Id`/`UID`, `Password`/`PWD`, `Encrypt`, `TrustServerCertificate`; keys in any case and spacing) or a
 * `sqlserver://` / `mssql://` URL. Throws CONNECTION_STRING_INVALID without repeating the text.
 */
export function readSqlServerConnectionString(text: string): SqlServerConnectionSettings {
  const parsed = parseConnectionString(text);
  if (parsed.form === 'url' && parsed.scheme !== 'sqlserver' && parsed.scheme !== 'mssql') {
    throw invalid(`a URL must use the sqlserver:// or mssql:// scheme, got ${parsed.scheme}://`);
  }
  const server = connectionStringSetting(
    parsed,
    parsed.form === 'url' ? ['host'] : ['server', 'data source', 'address', 'addr', 'network address'],
  );
  const place = server ? readServer(server) : undefined;
  const urlPort = parsed.form === 'url' ? connectionStringSetting(parsed, ['port']) : undefined;
  const encrypt = connectionStringSetting(parsed, ['encrypt']);
  return {
    ...(place?.host ? { host: place.host } : {}),
    ...(place?.port !== undefined ? { port: place.port } : urlPort ? { port: Number(urlPort) } : {}),
    ...(place?.instanceName ? { instanceName: place.instanceName } : {}),
    ...optional('database', connectionStringSetting(parsed, ['database', 'initial catalog', 'databasename'])),
    ...optional('username', connectionStringSetting(parsed, ['user id', 'uid', 'user', 'username'])),
    ...optional('password', connectionStringSetting(parsed, ['password', 'pwd'])),
    ...(encrypt !== undefined
      ? {
          encrypt:
            encrypt.trim().toLowerCase() === 'strict' ? ('strict' as const) : flag(encrypt, 'Encrypt')!,
        }
      : {}),
    ...optional(
      'trustServerCertificate',
      flag(
        connectionStringSetting(parsed, ['trust server certificate', 'trustservercertificate']),
        'TrustServerCertificate',
      ),
    ),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
