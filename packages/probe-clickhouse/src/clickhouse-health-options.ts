import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import {
  parseConnectionString,
  portField,
  probeSectionSchema,
  validateResolvedTarget,
  type ProbeOptions,
} from '@corekit/probe-kit';

/** Fields of one `Engine:Observability:DependencyHealth:ClickHouse:Dependencies:<n>` entry, besides the common ones. */
export const clickHouseHealthEntryShape = {
  /**
   * Connection string, as a URL (`http://user:password@clickhouse:8123/analytics`) or key=value pairs
   * (`Host=clickhouse;Port=8123;Database=analytics;Username=reader;Password=...;Protocol=https`). The
   * separate fields below win over its parts. Either ConnectionString or Host is required. The password
   * in it is redacted from every output.
   */
  ConnectionString: z
    .string()
    .min(1)
    .optional()
    .describe('URL or key=value connection string; ConnectionString or Host is required'),
  /** Server host name or address. Either ConnectionString or Host is required. */
  Host: z.string().min(1).optional().describe('server host; ConnectionString or Host is required'),
  /** HTTP interface protocol: `http` (default) or `https`. The native TCP protocol is not used by the client. */
  Protocol: z.enum(['http', 'https']).optional().describe('http (default) or https'),
  /** HTTP interface port; default 8123 for http, 8443 for https. */
  Port: portField('HTTP interface port; default 8123 (http) or 8443 (https)').optional(),
  /** Database the query runs in; default `default`. */
  Database: z.string().min(1).optional().describe('database; default "default"'),
  /** User name; default `default`. */
  Username: z.string().min(1).optional().describe('user name; default "default"'),
  /** Password; omitted means none. */
  Password: secretString('password of the user').optional(),
  /** SQL run on each check; must be a read. Default `SELECT 1`. */
  HealthQuery: z
    .string()
    .min(1)
    .default('SELECT 1')
    .describe('read-only SQL run on each check; default SELECT 1'),
};

/** Code options of addClickHouseHealth, in the configuration's shape. */
export type ClickHouseHealthOptions = ProbeOptions<typeof clickHouseHealthEntryShape>;

/** Where and as whom the probe connects, after merging ConnectionString and the separate fields. */
export interface ClickHouseTarget {
  readonly protocol: 'http' | 'https';
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly username: string;
  readonly password: string;
}

interface EntryFields {
  ConnectionString?: string;
  Host?: string;
  Protocol?: 'http' | 'https';
  Port?: number;
  Database?: string;
  Username?: string;
  Password?: string;
}

/** Resolves the target; throws CoreError CONNECTION_STRING_INVALID for an unreadable connection string. */
export function resolveClickHouseTarget(entry: EntryFields): ClickHouseTarget {
  const settings = entry.ConnectionString ? parseConnectionString(entry.ConnectionString) : undefined;
  const setting = (...names: string[]) =>
    names.map((name) => settings?.settings.get(name)).find((value) => value !== undefined && value !== '');
  const schemeProtocol =
    settings?.scheme === 'https' ? 'https' : settings?.scheme === 'http' ? 'http' : undefined;
  const protocolSetting = setting('protocol', 'scheme')?.toLowerCase();
  const protocol =
    entry.Protocol ??
    (protocolSetting === 'https' || protocolSetting === 'http' ? protocolSetting : schemeProtocol) ??
    'http';
  const portSetting = setting('port');
  return {
    protocol,
    host: entry.Host ?? setting('host', 'server', 'datasource') ?? '',
    port: entry.Port ?? (portSetting ? Number(portSetting) : protocol === 'https' ? 8443 : 8123),
    database: entry.Database ?? setting('database', 'db', 'initialcatalog') ?? 'default',
    username: entry.Username ?? setting('username', 'user', 'userid', 'uid') ?? 'default',
    password: entry.Password ?? setting('password', 'pwd') ?? '',
  };
}

export function validateClickHouseHealthEntry(
  entry: EntryFields,
  issue: (field: string, message: string) => void,
): void {
  validateResolvedTarget(entry, 'http://user:password@clickhouse:8123/db', issue, () =>
    resolveClickHouseTarget(entry),
  );
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:ClickHouse` section. */
export const clickHouseHealthOptionsSchema = probeSectionSchema({
  entryShape: clickHouseHealthEntryShape,
  validateEntry: validateClickHouseHealthEntry,
});
