import {
  databaseConnectionStringPassword,
  resolveDatabaseConnection,
  validateDatabaseConnection,
  type DatabaseConnectionDialect,
  type DatabaseConnectionSettings,
  type DatabaseEntryFields,
} from '@corekit/probe-kit';
import { postgresSslModeSpellings, type PostgresSslMode } from './postgres-ssl-mode';

/** What one run connects with: the entry's fields over the parts of its ConnectionString. */
export interface PostgresConnectionSettings extends DatabaseConnectionSettings<PostgresSslMode> {
  readonly database: string;
  readonly applicationName?: string;
}

type PostgresEntryFields = DatabaseEntryFields<PostgresSslMode>;

const dialect: DatabaseConnectionDialect<PostgresSslMode, 'ApplicationName'> = {
  aliases: {
    Host: ['host', 'server'],
    Port: ['port'],
    Database: ['database', 'dbname', 'db'],
    Username: ['username', 'user', 'userid', 'uid'],
    Password: ['password', 'pwd'],
    SslMode: ['sslmode'],
    SslRootCertificate: ['sslrootcert', 'rootcertificate'],
    ApplicationName: ['applicationname'],
  },
  ignoredKeys: [
    'pooling',
    'minpoolsize',
    'maxpoolsize',
    'minimumpoolsize',
    'maximumpoolsize',
    'timeout',
    'connecttimeout',
    'commandtimeout',
  ],
  schemes: ['postgresql', 'postgres'],
  supported:
    'Host, Port, Database, Username, Password, SslMode, SslRootCert, ApplicationName (pooling and timeout keys are ignored)',
  defaultPort: 5432,
  defaultSslMode: 'Prefer',
  sslModeSpellings: postgresSslModeSpellings,
  sslModeIssue: 'has an SslMode that is not one of Disable, Allow, Prefer, Require, VerifyCA, VerifyFull',
  hostIssue:
    'is required (here or as Host in ConnectionString): the host name or IP address of the PostgreSQL server',
  usernameIssue: 'is required (here or as Username in ConnectionString): the role the probe logs in as',
};

/** Registration-time rules: a parsable ConnectionString with known keys, and a host and user from somewhere. */
export function validatePostgresConnection(
  entry: PostgresEntryFields,
  issue: (field: string, message: string) => void,
): void {
  validateDatabaseConnection(entry, dialect, issue);
}

/** The password hidden in the ConnectionString, for redaction. */
export function postgresConnectionStringPassword(entry: PostgresEntryFields): string | undefined {
  return databaseConnectionStringPassword(entry, dialect);
}

/** Settings of a validated entry (validatePostgresConnection passed); the database defaults to the user. */
export function resolvePostgresConnection(entry: PostgresEntryFields): PostgresConnectionSettings {
  const { settings, read } = resolveDatabaseConnection(entry, dialect);
  const applicationName = read('ApplicationName');
  return {
    ...settings,
    database: entry.Database ?? read('Database') ?? settings.username,
    ...(applicationName !== undefined ? { applicationName } : {}),
  };
}
