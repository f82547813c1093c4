import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { portField } from './probe-section-schema';

/** What differs between the SQL probes' connection fields: defaults, TLS modes and the wording of the descriptions. */
export interface DatabaseEntryShapeSpec<TModes extends readonly [string, ...string[]]> {
  readonly defaultPort: number;
  /** Description of Host (`host name or IP address of the server`). */
  readonly hostDescription: string;
  /** Description of Database, with its default. */
  readonly databaseDescription: string;
  /** What logs in: `role` (PostgreSQL), `account` (MySQL). */
  readonly userNoun: string;
  readonly sslModes: TModes;
  /** Maps the other spellings of a mode (`verify-full`) to the probe's own; anything else as is. */
  readonly normalizeSslMode: (value: unknown) => unknown;
  readonly defaultSslMode: TModes[number];
}

/**
 * The connection fields of a SQL probe entry: ConnectionString (a secret; the separate fields override its
 * parts), Host, Port, Database, Username, Password (a secret), SslMode (other spellings normalized) and
 * SslRootCertificate (a PEM file path). Host and Username are required here or in the ConnectionString:
 * the probe's validateEntry checks that.
 */
export function databaseEntryShape<const TModes extends readonly [string, ...string[]]>(
  spec: DatabaseEntryShapeSpec<TModes>,
) {
  return {
    ConnectionString: secretString(
      'URL or key=value connection string; the separate fields override its parts',
    ).optional(),
    Host: z.string().trim().min(1, 'must be a non-empty string').optional().describe(spec.hostDescription),
    Port: portField(`TCP port of the server; default ${spec.defaultPort}`).optional(),
    Database: z.string().min(1, 'must be a non-empty string').optional().describe(spec.databaseDescription),
    Username: z
      .string()
      .min(1, 'must be a non-empty string')
      .optional()
      .describe(`${spec.userNoun} to log in as; required`),
    Password: secretString(`password of the ${spec.userNoun}; supply it from the environment`).optional(),
    SslMode: z
      .preprocess(
        spec.normalizeSslMode,
        z.enum(spec.sslModes, { error: `must be one of ${spec.sslModes.join(', ')}` }),
      )
      .optional()
      .describe(`TLS mode; default ${spec.defaultSslMode}`),
    SslRootCertificate: z
      .string()
      .min(1, 'must be a file path')
      .optional()
      .describe('PEM file of trusted certificate authorities'),
  };
}

/** HealthQuery: SQL run on the connection; any successful execution is Healthy. Default `SELECT 1`. */
export function healthQueryField() {
  return z
    .string()
    .trim()
    .min(1, 'must be a non-empty SQL statement')
    .default('SELECT 1')
    .describe('SQL run on the connection; default SELECT 1');
}
