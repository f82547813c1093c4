import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import {
  booleanField,
  portField,
  probeSectionSchema,
  textField,
  type ProbeOptions,
} from '@corekit/probe-kit';
import { readSqlServerConnectionString } from './sql-server-connection-string';

/** SQL Server's TCP port when neither ConnectionString nor Port names one. */
export const mssqlDefaultPort = 1433;

/** Fields of one `Engine:Observability:DependencyHealth:SqlServer:Dependencies:<n>` entry, besides the common ones. */
export const mssqlHealthEntryShape = {
  /**
   * ADO.NET connection string (`Server=tcp:db.internal,1433;Database=orders;User Id=health;Password=...;
   * Encrypt=True`) or a `sqlserver://user:password@host:1433/database` URL. Treated as a secret as a whole,
   * since it usually carries the password. Its settings win; the separate fields fill in what it leaves out.
   * Set either ConnectionString or Host.
   */
  ConnectionString: secretString(
    'ADO.NET connection string or sqlserver:// URL; supply it from the environment',
  ).optional(),
  /** Server host name or address, when ConnectionString is not set. `host\\instance` names an instance (resolved through SQL Browser, UDP 1434). */
  Host: z
    .string()
    .min(1, 'must be a non-empty host name')
    .optional()
    .describe('SQL Server host, or host\\instance'),
  /** TCP port. Default 1433; ignored for a named instance. */
  Port: portField('SQL Server TCP port').default(mssqlDefaultPort),
  /** Database the login opens. Omitted: the login's default database. */
  Database: z
    .string()
    .min(1, 'must be a non-empty database name')
    .optional()
    .describe("database to open; omitted: the login's default"),
  /** SQL Server login (SQL authentication). Required unless ConnectionString names the user. */
  Username: z
    .string()
    .min(1, 'must be a non-empty login name')
    .optional()
    .describe('SQL authentication login'),
  /** Password of the login; supply it from the environment. */
  Password: secretString('password of the SQL login; supply it from the environment').optional(),
  /**
   * Encrypt the connection with TLS. Default true: a server that does not support encryption is then
   * reported Unhealthy rather than probed in clear text.
   */
  Encrypt: booleanField('encrypt the connection with TLS').default(true),
  /** Accept the server certificate without validating it (self-signed test servers only). Default false. */
  TrustServerCertificate: booleanField('accept the server certificate without validation').default(false),
  /** T-SQL batch run on the connection. Default `SELECT 1`. Keep it read-only and small: every row is read. */
  HealthQuery: textField('T-SQL health query').default('SELECT 1'),
};

/** Code options of addMssqlHealth, in the configuration's shape. */
export type MssqlHealthOptions = ProbeOptions<typeof mssqlHealthEntryShape>;

export function validateMssqlHealthEntry(
  entry: { ConnectionString?: string; Host?: string; Username?: string },
  issue: (field: string, message: string) => void,
): void {
  if (entry.ConnectionString && entry.Host)
    issue('Host', 'must not be set together with ConnectionString: use one or the other');
  if (!entry.ConnectionString && !entry.Host)
    issue('ConnectionString', 'is required (or Host): the SQL Server to probe');
  let connectionUser: string | undefined;
  if (entry.ConnectionString) {
    try {
      const settings = readSqlServerConnectionString(entry.ConnectionString);
      if (!settings.host)
        issue('ConnectionString', 'names no server: add Server=host,port (or Data Source=...)');
      connectionUser = settings.username;
    } catch (error) {
      issue(
        'ConnectionString',
        (error as Error).message.replace(/^The connection string /, '').replace(/\.$/, ''),
      );
    }
  }
  if (!entry.Username && !connectionUser) {
    issue(
      'Username',
      'is required (or User Id in ConnectionString): the probe logs in with SQL authentication',
    );
  }
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:SqlServer` section. */
export const mssqlHealthOptionsSchema = probeSectionSchema({
  entryShape: mssqlHealthEntryShape,
  validateEntry: validateMssqlHealthEntry,
});
