import {
  booleanField,
  databaseEntryShape,
  healthQueryField,
  probeSectionSchema,
  type ProbeOptions,
} from '@corekit/probe-kit';
import { validateMySqlConnection } from './mysql-connection-settings';
import { mySqlSslModes, normalizeMySqlSslMode } from './mysql-ssl-mode';

/**
 * Fields of one `Engine:Observability:DependencyHealth:MySql:Dependencies:<n>` entry, besides the common ones.
 *
 * - ConnectionString: the whole connection as a URL (`mysql://user:password@host:3306/database?ssl-mode=REQUIRED`)
 *   or as key=value pairs (`Server=db;Port=3306;Database=orders;User Id=probe;Password=...;SslMode=VerifyFull`).
 *   The separate fields override the parts they set. A secret when it holds a password.
 * - Host: host name or IP address, required here or in ConnectionString. Port: default 3306.
 * - Database: default database of the session; omitted: none (the health query must then not need one).
 * - Username: the account to log in as, required here or in ConnectionString. Password: omitted, an empty
 *   password; a secret, supply it from the environment.
 * - SslMode: None (plain), Preferred (TLS when the server offers it, else plain; default), Required (TLS,
 *   certificate not checked), VerifyCA (TLS, chain checked), VerifyFull (chain and host name checked). The
 *   mysql client's spellings (`DISABLED`, `VERIFY_IDENTITY`) are accepted.
 * - SslRootCertificate: a PEM file with the certificate authorities trusted by VerifyCA and VerifyFull
 *   (MySqlConnector's `SslCa`). Not in the spec.
 * - HealthQuery: SQL run on the connection; any successful execution is Healthy. Keep it read-only. Default
 *   `SELECT 1`.
 */
export const mySqlHealthEntryShape = {
  ...databaseEntryShape({
    defaultPort: 3306,
    hostDescription: 'host name or IP address of the server',
    databaseDescription: 'default database of the session; default none',
    userNoun: 'account',
    sslModes: mySqlSslModes,
    normalizeSslMode: normalizeMySqlSslMode,
    defaultSslMode: 'Preferred',
  }),
  /**
   * Lets the client ask the server for its RSA public key to send the password over a plain connection
   * (caching_sha2_password, sha256_password). Off by default: a server in the middle could hand out its own
   * key and read the password. Not needed with TLS.
   */
  AllowPublicKeyRetrieval: booleanField(
    'allow asking the server for its RSA public key over a plain connection; default false',
  ).optional(),
  HealthQuery: healthQueryField(),
};

/** Code options of addMySqlHealth, in the configuration's shape. */
export type MySqlHealthOptions = ProbeOptions<typeof mySqlHealthEntryShape>;

/** The zod schema of the whole `Engine:Observability:DependencyHealth:MySql` section. */
export const mySqlHealthOptionsSchema = probeSectionSchema({
  entryShape: mySqlHealthEntryShape,
  validateEntry: validateMySqlConnection,
});
