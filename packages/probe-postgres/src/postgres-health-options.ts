import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { portField, probeSectionSchema, type ProbeOptions } from '@corekit/probe-kit';
import { validatePostgresConnection } from './postgres-connection-settings';
import { normalizePostgresSslMode, postgresSslModes } from './postgres-ssl-mode';

/** Fields of one `Engine:Observability:DependencyHealth:PostgreSql:Dependencies:<n>` entry, besides the common ones. */
export const postgresHealthEntryShape = {
  /**
   * The whole connection as a URL (`postgresql://user:password@host:5432/database?sslmode=require`) or as
   * key=value pairs (`Host=db;Port=5432;Database=orders;Username=probe;Password=...;SSL Mode=VerifyFull`).
   * The separate fields below override the parts they set. A secret when it holds a password.
   */
  ConnectionString: secretString(
    'URL or key=value connection string; the separate fields override its parts',
  ).optional(),
  /** Host name or IP address; a path starting with `/` is a Unix socket directory. Required here or in ConnectionString. */
  Host: z
    .string()
    .trim()
    .min(1, 'must be a non-empty string')
    .optional()
    .describe('host name, IP address or Unix socket directory'),
  /** TCP port; default 5432. */
  Port: portField('TCP port of the server; default 5432').optional(),
  /** Database to connect to; default: the database named like the user (as PostgreSQL itself does). */
  Database: z
    .string()
    .min(1, 'must be a non-empty string')
    .optional()
    .describe('database to connect to; default the user name'),
  /** Role to log in as. Required here or in ConnectionString. */
  Username: z
    .string()
    .min(1, 'must be a non-empty string')
    .optional()
    .describe('role to log in as; required'),
  /** Password, sent only when the server asks for one. A secret: supply it from the environment. */
  Password: secretString('password of the role; supply it from the environment').optional(),
  /**
   * TLS: Disable (plain), Allow (plain, TLS if the server refuses plain), Prefer (TLS, plain if the server has
   * no TLS; default), Require (TLS, certificate not checked), VerifyCA (TLS, certificate chain checked),
   * VerifyFull (chain and host name checked). libpq spellings (`verify-full`) are accepted.
   */
  SslMode: z
    .preprocess(
      normalizePostgresSslMode,
      z.enum(postgresSslModes, { error: `must be one of ${postgresSslModes.join(', ')}` }),
    )
    .optional()
    .describe('TLS mode; default Prefer'),
  /**
   * Path of a PEM file with the certificate authorities to trust for VerifyCA and VerifyFull, instead of
   * Node's default store. Not in the spec; libpq calls it `sslrootcert`.
   */
  SslRootCertificate: z
    .string()
    .min(1, 'must be a file path')
    .optional()
    .describe('PEM file of trusted certificate authorities'),
  /** SQL run on the connection; any successful execution is Healthy. Keep it read-only. Default `SELECT 1`. */
  HealthQuery: z
    .string()
    .trim()
    .min(1, 'must be a non-empty SQL statement')
    .default('SELECT 1')
    .describe('SQL run on the connection; default SELECT 1'),
};

/** Code options of addPostgresHealth, in the configuration's shape. */
export type PostgresHealthOptions = ProbeOptions<typeof postgresHealthEntryShape>;

/** The zod schema of the whole `Engine:Observability:DependencyHealth:PostgreSql` section. */
export const postgresHealthOptionsSchema = probeSectionSchema({
  entryShape: postgresHealthEntryShape,
  validateEntry: validatePostgresConnection,
});
