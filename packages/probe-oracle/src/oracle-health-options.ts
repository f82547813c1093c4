import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { portField, probeSectionSchema, textField, type ProbeOptions } from '@corekit/probe-kit';

/** The Oracle listener's port when neither ConnectionString nor Port names one. */
export const oracleDefaultPort = 1521;

/** Fields of one `Engine:Observability:DependencyHealth:Oracle:Dependencies:<n>` entry, besides the common ones. */
export const oracleHealthEntryShape = {
  /**
   * Oracle Net connect string as node-oracledb takes it: Easy Connect (`db.internal:1521/ORDERS`,
   * `tcps://db.example.com:2484/ORDERS?ssl_server_dn_match=true`) or a full descriptor
   * (`(DESCRIPTION=(ADDRESS=...)(CONNECT_DATA=(SERVICE_NAME=ORDERS)))`). It never carries credentials: use
   * Username and Password. Set either ConnectionString or Host with ServiceName.
   */
  ConnectionString: z
    .string()
    .min(1, 'must be a non-empty connect string')
    .optional()
    .describe('Easy Connect string or Oracle Net descriptor'),
  /** Listener host, when ConnectionString is not set. */
  Host: z
    .string()
    .min(1, 'must be a non-empty host name')
    .optional()
    .describe('Oracle listener host, when ConnectionString is not set'),
  /** Listener port used with Host. Default 1521. */
  Port: portField('Oracle listener port used with Host').default(oracleDefaultPort),
  /** Database service registered with the listener (a PDB's service, `FREEPDB1`, `ORDERS`). Required with Host. */
  ServiceName: z
    .string()
    .min(1, 'must be a non-empty service name')
    .optional()
    .describe('database service name, required with Host'),
  /** Database user. */
  Username: z
    .string({ error: 'is required: the database user the probe logs in as' })
    .min(1, 'is required: the database user the probe logs in as')
    .describe('database user'),
  /** Password of Username; supply it from the environment. */
  Password: secretString('password of Username; supply it from the environment'),
  /** SQL run on the connection. Default `SELECT 1 FROM DUAL`. Keep it read-only and small: every row is fetched. */
  HealthQuery: textField('SQL health query').default('SELECT 1 FROM DUAL'),
};

/** Code options of addOracleHealth, in the configuration's shape. */
export type OracleHealthOptions = ProbeOptions<typeof oracleHealthEntryShape>;

/** The connect string of an entry: ConnectionString as given, or Easy Connect `host:port/service`. */
export function oracleConnectString(entry: {
  ConnectionString?: string;
  Host?: string;
  Port: number;
  ServiceName?: string;
}): string {
  if (entry.ConnectionString) return entry.ConnectionString.trim();
  const host = entry.Host!.includes(':') ? `[${entry.Host}]` : entry.Host;
  return `${host}:${entry.Port}/${entry.ServiceName}`;
}

export function validateOracleHealthEntry(
  entry: { ConnectionString?: string; Host?: string; ServiceName?: string },
  issue: (field: string, message: string) => void,
): void {
  if (entry.ConnectionString && entry.Host)
    issue('Host', 'must not be set together with ConnectionString: use one or the other');
  if (!entry.ConnectionString && !entry.Host)
    issue('ConnectionString', 'is required (or Host with ServiceName): the Oracle database to probe');
  if (entry.Host && !entry.ServiceName)
    issue('ServiceName', 'is required with Host: the database service registered with the listener');
  const text = entry.ConnectionString?.trim();
  if (text) {
    if (!text.startsWith('(') && /^[^/?@]*\/[^@]*@/.test(text)) {
      issue(
        'ConnectionString',
        'must not carry credentials (user/password@...): set Username and Password instead',
      );
    }
    if (text.startsWith('(') && countOf(text, '(') !== countOf(text, ')'))
      issue('ConnectionString', 'has unbalanced parentheses');
  }
}

function countOf(text: string, character: string): number {
  return text.split(character).length - 1;
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Oracle` section. */
export const oracleHealthOptionsSchema = probeSectionSchema({
  entryShape: oracleHealthEntryShape,
  validateEntry: validateOracleHealthEntry,
});
