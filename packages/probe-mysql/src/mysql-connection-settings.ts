import {
  databaseConnectionStringPassword,
  resolveDatabaseConnection,
  validateDatabaseConnection,
  type DatabaseConnectionDialect,
  type DatabaseConnectionSettings,
  type DatabaseEntryFields,
} from '@corekit/probe-kit';
import { mySqlSslModes, mySqlSslModeSpellings, type MySqlSslMode } from './mysql-ssl-mode';

/** What one run connects with: the entry's fields over the parts of its ConnectionString. */
export interface MySqlConnectionSettings extends DatabaseConnectionSettings<MySqlSslMode> {
  readonly database?: string;
  readonly allowPublicKeyRetrieval: boolean;
}

interface MySqlEntryFields extends DatabaseEntryFields<MySqlSslMode> {
  AllowPublicKeyRetrieval?: boolean;
}

/** Connection-string keys (normalized, MySqlConnector and URL spellings) and the field each one sets. */
const dialect: DatabaseConnectionDialect<MySqlSslMode, 'AllowPublicKeyRetrieval'> = {
  aliases: {
    Host: ['host', 'server', 'datasource', 'address', 'addr', 'networkaddress'],
    Port: ['port'],
    Database: ['database', 'initialcatalog'],
    Username: ['username', 'userid', 'uid', 'user'],
    Password: ['password', 'pwd'],
    SslMode: ['sslmode'],
    SslRootCertificate: ['sslca', 'cacertificatefile', 'sslrootcert'],
    AllowPublicKeyRetrieval: ['allowpublickeyretrieval'],
  },
  ignoredKeys: [
    'pooling',
    'minpoolsize',
    'maxpoolsize',
    'minimumpoolsize',
    'maximumpoolsize',
    'connectiontimeout',
    'connecttimeout',
    'defaultcommandtimeout',
    'commandtimeout',
  ],
  schemes: ['mysql', 'mariadb'],
  supported:
    'Server, Port, Database, User Id, Password, SslMode, SslCa, AllowPublicKeyRetrieval (pooling and timeout keys are ignored)',
  defaultPort: 3306,
  defaultSslMode: 'Preferred',
  sslModeSpellings: mySqlSslModeSpellings,
  sslModeIssue: `has an SslMode that is not one of ${mySqlSslModes.join(', ')}`,
  hostIssue:
    'is required (here or as Server in ConnectionString): the host name or IP address of the MySQL server',
  usernameIssue: 'is required (here or as User Id in ConnectionString): the account the probe logs in as',
};

/** Registration-time rules: a parsable ConnectionString with known keys, and a host and user from somewhere. */
export function validateMySqlConnection(
  entry: MySqlEntryFields,
  issue: (field: string, message: string) => void,
): void {
  validateDatabaseConnection(entry, dialect, issue, (read) => {
    const retrieval = read('AllowPublicKeyRetrieval');
    if (
      entry.AllowPublicKeyRetrieval === undefined &&
      retrieval !== undefined &&
      !/^(true|false)$/i.test(retrieval)
    ) {
      issue('ConnectionString', 'has an AllowPublicKeyRetrieval that is not true or false');
    }
  });
}

/** The password hidden in the ConnectionString, for redaction. */
export function mySqlConnectionStringPassword(entry: MySqlEntryFields): string | undefined {
  return databaseConnectionStringPassword(entry, dialect);
}

/** Settings of a validated entry (validateMySqlConnection passed); no database unless one is set. */
export function resolveMySqlConnection(entry: MySqlEntryFields): MySqlConnectionSettings {
  const { settings, read } = resolveDatabaseConnection(entry, dialect);
  const database = entry.Database ?? read('Database');
  return {
    ...settings,
    allowPublicKeyRetrieval:
      entry.AllowPublicKeyRetrieval ?? read('AllowPublicKeyRetrieval')?.toLowerCase() === 'true',
    ...(database !== undefined ? { database } : {}),
  };
}
