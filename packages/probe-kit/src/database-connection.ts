import { isPlaceholder } from '@corekit/abstractions';
import {
  connectionStringSetting,
  parseConnectionString,
  validateConnectionString,
  type ParsedConnectionString,
} from './connection-string';

/** The connection fields a SQL database probe entry shares with the parts of its ConnectionString. */
export interface DatabaseEntryFields<TSslMode extends string> {
  ConnectionString?: string;
  Host?: string;
  Port?: number;
  Database?: string;
  Username?: string;
  Password?: string;
  SslMode?: TSslMode;
  SslRootCertificate?: string;
}

type CommonField = 'Host' | 'Port' | 'Database' | 'Username' | 'Password' | 'SslMode' | 'SslRootCertificate';

/**
 * What differs between the SQL probes' connection strings: the keys (normalized) each field answers to,
 * the keys accepted and ignored, the URL schemes, the defaults and the wording of the issues.
 */
export interface DatabaseConnectionDialect<TSslMode extends string, TField extends string = CommonField> {
  readonly aliases: Readonly<Record<TField | CommonField, readonly string[]>>;
  /** Accepted and ignored (pooling is always off and the engine enforces TimeoutSeconds). */
  readonly ignoredKeys: readonly string[];
  readonly schemes: readonly string[];
  /** The supported keys as the unsupported-key issue lists them. */
  readonly supported: string;
  readonly defaultPort: number;
  readonly defaultSslMode: TSslMode;
  /** Every accepted SslMode spelling, lower case without spaces, `_` or `-` (`verifyfull`), and its mode. */
  readonly sslModeSpellings: Readonly<Record<string, TSslMode>>;
  /** `has an SslMode that is not one of ...` */
  readonly sslModeIssue: string;
  /** The Host issue when no host is set anywhere. */
  readonly hostIssue: string;
  /** The Username issue when no user is set anywhere. */
  readonly usernameIssue: string;
}

/** The mode a spelling names (`verify-full`, `VERIFY_FULL`, `VerifyFull`), or undefined when none does. */
export function sslModeFromSpelling<TSslMode extends string>(
  spellings: Readonly<Record<string, TSslMode>>,
  text: string,
): TSslMode | undefined {
  const key = text.toLowerCase().replace(/[\s_-]+/g, '');
  return Object.hasOwn(spellings, key) ? spellings[key] : undefined;
}

/** Reads one field of a parsed ConnectionString through the dialect's aliases. */
export type ConnectionStringReader<TField extends string> = (
  field: TField | CommonField,
) => string | undefined;

function reader<TField extends string>(
  aliases: Readonly<Record<TField | CommonField, readonly string[]>>,
  parsed: ParsedConnectionString | undefined,
): ConnectionStringReader<TField> {
  return (field) => (parsed ? connectionStringSetting(parsed, aliases[field]) : undefined);
}

function parse(connectionString: string | undefined): ParsedConnectionString | undefined {
  return connectionString === undefined ? undefined : parseConnectionString(connectionString);
}

/**
 * Registration-time rules of a SQL probe entry: a parsable ConnectionString of the dialect's schemes with
 * known keys, a port number and a known SslMode in it, no placeholder password, and a host and a user from
 * the entry or the string. `extra` runs after the SslMode check with the same reader (provider keys).
 */
export function validateDatabaseConnection<TSslMode extends string, TField extends string>(
  entry: DatabaseEntryFields<TSslMode>,
  dialect: DatabaseConnectionDialect<TSslMode, TField>,
  issue: (field: string, message: string) => void,
  extra?: (read: ConnectionStringReader<TField>) => void,
): void {
  const knownKeys = new Set<string>([
    ...Object.values<readonly string[]>(dialect.aliases).flat(),
    ...dialect.ignoredKeys,
  ]);
  const parsed = validateConnectionString(
    entry.ConnectionString,
    { schemes: dialect.schemes, knownKeys, supported: dialect.supported },
    issue,
  );
  if (entry.ConnectionString !== undefined && parsed === undefined) return;
  const read = reader(dialect.aliases, parsed);
  const port = read('Port');
  if (entry.Port === undefined && port !== undefined && !/^\d{1,5}$/.test(port))
    issue('ConnectionString', 'has a Port that is not a port number');
  const sslMode = read('SslMode');
  if (
    entry.SslMode === undefined &&
    sslMode !== undefined &&
    sslModeFromSpelling(dialect.sslModeSpellings, sslMode) === undefined
  )
    issue('ConnectionString', dialect.sslModeIssue);
  extra?.(read);
  if (entry.Password === undefined && isPlaceholder(read('Password'))) {
    issue(
      'ConnectionString',
      'holds a placeholder password; supply the real secret (or set Password separately from the environment)',
    );
  }
  if (!entry.Host && !read('Host')) issue('Host', dialect.hostIssue);
  if (!entry.Username && !read('Username')) issue('Username', dialect.usernameIssue);
}

/** The password hidden in the ConnectionString, for redaction (undefined when there is none or it does not parse). */
export function databaseConnectionStringPassword<TSslMode extends string, TField extends string>(
  entry: DatabaseEntryFields<TSslMode>,
  dialect: DatabaseConnectionDialect<TSslMode, TField>,
): string | undefined {
  try {
    return reader(dialect.aliases, parse(entry.ConnectionString))('Password');
  } catch {
    return undefined;
  }
}

/** The shared settings of a validated entry: the entry's fields over the parts of its ConnectionString. */
export interface DatabaseConnectionSettings<TSslMode extends string> {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password?: string;
  readonly sslMode: TSslMode;
  readonly sslRootCertificate?: string;
}

/**
 * Resolves a validated entry (validateDatabaseConnection passed): host, port, user, password, SslMode and
 * root certificate, and the reader for the fields a provider adds (its database default, its own keys).
 */
export function resolveDatabaseConnection<TSslMode extends string, TField extends string>(
  entry: DatabaseEntryFields<TSslMode>,
  dialect: DatabaseConnectionDialect<TSslMode, TField>,
): {
  readonly settings: DatabaseConnectionSettings<TSslMode>;
  readonly read: ConnectionStringReader<TField>;
} {
  const read = reader(dialect.aliases, parse(entry.ConnectionString));
  const sslModeText = read('SslMode');
  const password = entry.Password ?? read('Password');
  const sslRootCertificate = entry.SslRootCertificate ?? read('SslRootCertificate');
  return {
    read,
    settings: {
      host: entry.Host ?? read('Host')!,
      port: entry.Port ?? Number(read('Port') ?? dialect.defaultPort),
      username: entry.Username ?? read('Username')!,
      sslMode:
        entry.SslMode ??
        (sslModeText !== undefined
          ? sslModeFromSpelling(dialect.sslModeSpellings, sslModeText)
          : undefined) ??
        dialect.defaultSslMode,
      ...(password !== undefined ? { password } : {}),
      ...(sslRootCertificate !== undefined ? { sslRootCertificate } : {}),
    },
  };
}
