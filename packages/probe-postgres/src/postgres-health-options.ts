import {
  databaseEntryShape,
  healthQueryField,
  probeSectionSchema,
  type ProbeOptions,
} from '@corekit/probe-kit';
import { validatePostgresConnection } from './postgres-connection-settings';
import { normalizePostgresSslMode, postgresSslModes } from './postgres-ssl-mode';

/**
 * Fields of one `Engine:Observability:DependencyHealth:PostgreSql:Dependencies:<n>` entry, besides the common ones.
 *
 * - ConnectionString: the whole connection as a URL (`postgresql://user:password@host:5432/database?sslmode=require`)
 *   or as key=value pairs (`Host=db;Port=5432;Database=orders;Username=probe;Password=...;SSL Mode=VerifyFull`).
 *   The separate fields override the parts they set. A secret when it holds a password.
 * - Host: host name or IP address; a path starting with `/` is a Unix socket directory. Required here or in
 *   ConnectionString. Port: default 5432.
 * - Database: default the database named like the user (as PostgreSQL itself does).
 * - Username: the role to log in as, required here or in ConnectionString. Password: sent only when the
 *   server asks for one; a secret, supply it from the environment.
 * - SslMode: Disable (plain), Allow (plain, TLS if the server refuses plain), Prefer (TLS, plain if the server
 *   has no TLS; default), Require (TLS, certificate not checked), VerifyCA (TLS, certificate chain checked),
 *   VerifyFull (chain and host name checked). libpq spellings (`verify-full`) are accepted.
 * - SslRootCertificate: a PEM file with the certificate authorities to trust for VerifyCA and VerifyFull,
 *   instead of Node's default store. Not in the spec; libpq calls it `sslrootcert`.
 * - HealthQuery: SQL run on the connection; any successful execution is Healthy. Keep it read-only. Default
 *   `SELECT 1`.
 */
export const postgresHealthEntryShape = {
  ...databaseEntryShape({
    defaultPort: 5432,
    hostDescription: 'host name, IP address or Unix socket directory',
    databaseDescription: 'database to connect to; default the user name',
    userNoun: 'role',
    sslModes: postgresSslModes,
    normalizeSslMode: normalizePostgresSslMode,
    defaultSslMode: 'Prefer',
  }),
  HealthQuery: healthQueryField(),
};

/** Code options of addPostgresHealth, in the configuration's shape. */
export type PostgresHealthOptions = ProbeOptions<typeof postgresHealthEntryShape>;

/** The zod schema of the whole `Engine:Observability:DependencyHealth:PostgreSql` section. */
export const postgresHealthOptionsSchema = probeSectionSchema({
  entryShape: postgresHealthEntryShape,
  validateEntry: validatePostgresConnection,
});
