import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { booleanField, portField, probeSectionSchema, type ProbeOptions } from '@corekit/probe-kit';
import { validateMySqlConnection } from './mysql-connection-settings';
import { mySqlSslModes, normalizeMySqlSslMode } from './mysql-ssl-mode';

/** Fields of one `Engine:Observability:DependencyHealth:MySql:Dependencies:<n>` entry, besides the common ones. */
export const mySqlHealthEntryShape = {
  /**
   * The whole connection as a URL (`mysql://user:password@host:3306/database?ssl-mode=REQUIRED`) or as
   * key=value pairs (`Server=db;Port=3306;Database=orders;User Id=probe;Password=...;SslMode=VerifyFull`).
   * The separate fields below override the parts they set. A secret when it holds a password.
   */
  ConnectionString: secretString(
    'URL or key=value connection string; the separate fields override its parts',
  ).optional(),
  /** Host name or IP address. Required here or in ConnectionString. */
  Host: z
    .string()
    .trim()
    .min(1, 'must be a non-empty string')
    .optional()
    .describe('host name or IP address of the server'),
  /** TCP port; default 3306. */
  Port: portField('TCP port of the server; default 3306').optional(),
  /** Default database of the session; omitted: none (the health query must then not need one). */
  Database: z
    .string()
    .min(1, 'must be a non-empty string')
    .optional()
    .describe('default database of the session; default none'),
  /** Account to log in as. Required here or in ConnectionString. */
  Username: z
    .string()
    .min(1, 'must be a non-empty string')
    .optional()
    .describe('account to log in as; required'),
  /** Password of the account; omitted: an empty password. A secret: supply it from the environment. */
  Password: secretString('password of the account; supply it from the environment').optional(),
  /**
   * TLS: None (plain), Preferred (TLS when the server offers it, else plain; default), Required (TLS, certificate
   * not checked), VerifyCA (TLS, chain checked), VerifyFull (chain and host name checked). The mysql client's
   * spellings (`DISABLED`, `VERIFY_IDENTITY`) are accepted.
   */
  SslMode: z
    .preprocess(
      normalizeMySqlSslMode,
      z.enum(mySqlSslModes, { error: `must be one of ${mySqlSslModes.join(', ')}` }),
    )
    .optional()
    .describe('TLS mode; default Preferred'),
  /** Path of a PEM file with the certificate authorities trusted by VerifyCA and VerifyFull (MySqlConnector's `SslCa`). Not in the spec. */
  SslRootCertificate: z
    .string()
    .min(1, 'must be a file path')
    .optional()
    .describe('PEM file of trusted certificate authorities'),
  /**
   * Lets the client ask the server for its RSA public key to send the password over a plain connection
   * (caching_sha2_password, sha256_password). Off by default: a server in the middle could hand out its own
   * key and read the password. Not needed with TLS.
   */
  AllowPublicKeyRetrieval: booleanField(
    'allow asking the server for its RSA public key over a plain connection; default false',
  ).optional(),
  /** SQL run on the connection; any successful execution is Healthy. Keep it read-only. Default `SELECT 1`. */
  HealthQuery: z
    .string()
    .trim()
    .min(1, 'must be a non-empty SQL statement')
    .default('SELECT 1')
    .describe('SQL run on the connection; default SELECT 1'),
};

/** Code options of addMySqlHealth, in the configuration's shape. */
export type MySqlHealthOptions = ProbeOptions<typeof mySqlHealthEntryShape>;

/** The zod schema of the whole `Engine:Observability:DependencyHealth:MySql` section. */
export const mySqlHealthOptionsSchema = probeSectionSchema({
  entryShape: mySqlHealthEntryShape,
  validateEntry: validateMySqlConnection,
});
