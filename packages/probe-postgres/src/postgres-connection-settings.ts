import { isPlaceholder } from '@corekit/abstractions';
import {
  connectionStringSetting,
  parseConnectionString,
  validateConnectionString,
  type ParsedConnectionString,
} from '@corekit/probe-kit';
import { normalizePostgresSslMode, postgresSslModes, type PostgresSslMode } from './postgres-ssl-mode';

/** What one run connects with: the entry's fields over the parts of its ConnectionString. */
export interface PostgresConnectionSettings {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly username: string;
  readonly password?: string;
  readonly sslMode: PostgresSslMode;
  readonly sslRootCertificate?: string;
  readonly applicationName?: string;
}

interface PostgresEntryFields {
  ConnectionString?: string;
  Host?: string;
  Port?: number;
  Database?: string;
  Username?: string;
  Password?: string;
  SslMode?: PostgresSslMode;
  SslRootCertificate?: string;
}

/** Connection-string keys (normalized) and the field each one sets. */
const aliases = {
  Host: ['host', 'server'],
  Port: ['port'],
  Database: ['database', 'dbname', 'db'],
  Username: ['username', 'user', 'userid', 'uid'],
  Password: ['password', 'pwd'],
  SslMode: ['sslmode'],
  SslRootCertificate: ['sslrootcert', 'rootcertificate'],
  ApplicationName: ['applicationname'],
} as const;

/** Keys accepted and ignored: pooling is always off and the engine enforces TimeoutSeconds. */
const ignoredKeys = [
  'pooling',
  'minpoolsize',
  'maxpoolsize',
  'minimumpoolsize',
  'maximumpoolsize',
  'timeout',
  'connecttimeout',
  'commandtimeout',
];
const knownKeys = new Set<string>([...Object.values(aliases).flat(), ...ignoredKeys]);

function parse(connectionString: string | undefined): ParsedConnectionString | undefined {
  return connectionString === undefined ? undefined : parseConnectionString(connectionString);
}

/** Registration-time rules: a parsable ConnectionString with known keys, and a host and user from somewhere. */
export function validatePostgresConnection(
  entry: PostgresEntryFields,
  issue: (field: string, message: string) => void,
): void {
  const parsed = validateConnectionString(
    entry.ConnectionString,
    {
      schemes: ['postgresql', 'postgres'],
      knownKeys,
      supported:
        'Host, Port, Database, Username, Password, SslMode, SslRootCert, ApplicationName (pooling and timeout keys are ignored)',
    },
    issue,
  );
  if (entry.ConnectionString !== undefined && parsed === undefined) return;
  const fromString = (field: keyof typeof aliases) =>
    parsed ? connectionStringSetting(parsed, aliases[field]) : undefined;
  const port = fromString('Port');
  if (entry.Port === undefined && port !== undefined && !/^\d{1,5}$/.test(port))
    issue('ConnectionString', 'has a Port that is not a port number');
  const sslMode = fromString('SslMode');
  if (
    entry.SslMode === undefined &&
    sslMode !== undefined &&
    !postgresSslModes.includes(normalizePostgresSslMode(sslMode) as PostgresSslMode)
  ) {
    issue(
      'ConnectionString',
      'has an SslMode that is not one of Disable, Allow, Prefer, Require, VerifyCA, VerifyFull',
    );
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
      'is required (here or as Host in ConnectionString): the host name or IP address of the PostgreSQL server',
    );
  if (!entry.Username && !fromString('Username'))
    issue('Username', 'is required (here or as Username in ConnectionString): the role the probe logs in as');
}

/** The password hidden in the ConnectionString, for redaction. */
export function postgresConnectionStringPassword(entry: PostgresEntryFields): string | undefined {
  try {
    const parsed = parse(entry.ConnectionString);
    return parsed ? connectionStringSetting(parsed, aliases.Password) : undefined;
  } catch {
    return undefined;
  }
}

/** Settings of a validated entry (validatePostgresConnection passed). */
export function resolvePostgresConnection(entry: PostgresEntryFields): PostgresConnectionSettings {
  const parsed = parse(entry.ConnectionString);
  const fromString = (field: keyof typeof aliases) =>
    parsed ? connectionStringSetting(parsed, aliases[field]) : undefined;
  const username = entry.Username ?? fromString('Username')!;
  const sslModeText = fromString('SslMode');
  const password = entry.Password ?? fromString('Password');
  const sslRootCertificate = entry.SslRootCertificate ?? fromString('SslRootCertificate');
  const applicationName = fromString('ApplicationName');
  return {
    host: entry.Host ?? fromString('Host')!,
    port: entry.Port ?? Number(fromString('Port') ?? 5432),
    database: entry.Database ?? fromString('Database') ?? username,
    username,
    sslMode:
      entry.SslMode ??
      (sslModeText !== undefined ? (normalizePostgresSslMode(sslModeText) as PostgresSslMode) : 'Prefer'),
    ...(password !== undefined ? { password } : {}),
    ...(sslRootCertificate !== undefined ? { sslRootCertificate } : {}),
    ...(applicationName !== undefined ? { applicationName } : {}),
  };
}
