import { isPlaceholder } from '@corekit/abstractions';
import {
  connectionStringSetting,
  parseConnectionString,
  validateConnectionString,
  type ParsedConnectionString,
} from '@corekit/probe-kit';
import { mySqlSslModes, normalizeMySqlSslMode, type MySqlSslMode } from './mysql-ssl-mode';

/** What one run connects with: the entry's fields over the parts of its ConnectionString. */
export interface MySqlConnectionSettings {
  readonly host: string;
  readonly port: number;
  readonly database?: string;
  readonly username: string;
  readonly password?: string;
  readonly sslMode: MySqlSslMode;
  readonly sslRootCertificate?: string;
  readonly allowPublicKeyRetrieval: boolean;
}

interface MySqlEntryFields {
  ConnectionString?: string;
  Host?: string;
  Port?: number;
  Database?: string;
  Username?: string;
  Password?: string;
  SslMode?: MySqlSslMode;
  SslRootCertificate?: string;
  AllowPublicKeyRetrieval?: boolean;
}

/** Connection-string keys (normalized, MySqlConnector and URL spellings) and the field each one sets. */
const aliases = {
  Host: ['host', 'server', 'datasource', 'address', 'addr', 'networkaddress'],
  Port: ['port'],
  Database: ['database', 'initialcatalog'],
  Username: ['username', 'userid', 'uid', 'user'],
  Password: ['password', 'pwd'],
  SslMode: ['sslmode'],
  SslRootCertificate: ['sslca', 'cacertificatefile', 'sslrootcert'],
  AllowPublicKeyRetrieval: ['allowpublickeyretrieval'],
} as const;

/** Keys accepted and ignored: pooling is always off and the engine enforces TimeoutSeconds. */
const ignoredKeys = [
  'pooling',
  'minpoolsize',
  'maxpoolsize',
  'minimumpoolsize',
  'maximumpoolsize',
  'connectiontimeout',
  'connecttimeout',
  'defaultcommandtimeout',
  'commandtimeout',
];
const knownKeys = new Set<string>([...Object.values(aliases).flat(), ...ignoredKeys]);

function parse(connectionString: string | undefined): ParsedConnectionString | undefined {
  return connectionString === undefined ? undefined : parseConnectionString(connectionString);
}

function reader(parsed: ParsedConnectionString | undefined) {
  return (field: keyof typeof aliases) =>
    parsed ? connectionStringSetting(parsed, aliases[field]) : undefined;
}

/** Registration-time rules: a parsable ConnectionString with known keys, and a host and user from somewhere. */
export function validateMySqlConnection(
  entry: MySqlEntryFields,
  issue: (field: string, message: string) => void,
): void {
  const parsed = validateConnectionString(
    entry.ConnectionString,
    {
      schemes: ['mysql', 'mariadb'],
      knownKeys,
      supported:
        'Server, Port, Database, User Id, Password, SslMode, SslCa, AllowPublicKeyRetrieval (pooling and timeout keys are ignored)',
    },
    issue,
  );
  if (entry.ConnectionString !== undefined && parsed === undefined) return;
  const fromString = reader(parsed);
  const port = fromString('Port');
  if (entry.Port === undefined && port !== undefined && !/^\d{1,5}$/.test(port))
    issue('ConnectionString', 'has a Port that is not a port number');
  const sslMode = fromString('SslMode');
  if (
    entry.SslMode === undefined &&
    sslMode !== undefined &&
    !mySqlSslModes.includes(normalizeMySqlSslMode(sslMode) as MySqlSslMode)
  ) {
    issue('ConnectionString', `has an SslMode that is not one of ${mySqlSslModes.join(', ')}`);
  }
  const retrieval = fromString('AllowPublicKeyRetrieval');
  if (
    entry.AllowPublicKeyRetrieval === undefined &&
    retrieval !== undefined &&
    !/^(true|false)$/i.test(retrieval)
  ) {
    issue('ConnectionString', 'has an AllowPublicKeyRetrieval that is not true or false');
  }
  if (entry.Password === undefined && isPlaceholder(fromString('Password'))) {
    issue(
      'ConnectionString',
      'holds a placeholder password; supply the real secret (or set Password separately from the environment)',
    );
  }
  if (!entry.Host && !fromString('Host'))
    issue(
      'Host',
      'is required (here or as Server in ConnectionString): the host name or IP address of the MySQL server',
    );
  if (!entry.Username && !fromString('Username'))
    issue(
      'Username',
      'is required (here or as User Id in ConnectionString): the account the probe logs in as',
    );
}

/** The password hidden in the ConnectionString, for redaction. */
export function mySqlConnectionStringPassword(entry: MySqlEntryFields): string | undefined {
  try {
    return reader(parse(entry.ConnectionString))('Password');
  } catch {
    return undefined;
  }
}

/** Settings of a validated entry (validateMySqlConnection passed). */
export function resolveMySqlConnection(entry: MySqlEntryFields): MySqlConnectionSettings {
  const fromString = reader(parse(entry.ConnectionString));
  const sslModeText = fromString('SslMode');
  const retrievalText = fromString('AllowPublicKeyRetrieval');
  const database = entry.Database ?? fromString('Database');
  const password = entry.Password ?? fromString('Password');
  const sslRootCertificate = entry.SslRootCertificate ?? fromString('SslRootCertificate');
  return {
    host: entry.Host ?? fromString('Host')!,
    port: entry.Port ?? Number(fromString('Port') ?? 3306),
    username: entry.Username ?? fromString('Username')!,
    sslMode:
      entry.SslMode ??
      (sslModeText !== undefined ? (normalizeMySqlSslMode(sslModeText) as MySqlSslMode) : 'Preferred'),
    allowPublicKeyRetrieval: entry.AllowPublicKeyRetrieval ?? retrievalText?.toLowerCase() === 'true',
    ...(database !== undefined ? { database } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(sslRootCertificate !== undefined ? { sslRootCertificate } : {}),
  };
}
