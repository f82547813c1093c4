import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import {
  parseEndpoint,
  portField,
  probeSectionSchema,
  stringListField,
  textField,
  type ProbeOptions,
} from '@corekit/probe-kit';

/** The native protocol port when neither a contact point nor Port names one. */
export const cassandraDefaultPort = 9042;

/** The query run when HealthQuery is not set. */
export const defaultCassandraHealthQuery = 'SELECT release_version FROM system.local';

/** Fields of one `Engine:Observability:DependencyHealth:Cassandra:Dependencies:<n>` entry, besides the common ones. */
export const cassandraHealthEntryShape = {
  /**
   * Nodes to contact, `host` or `host:port` (`[ipv6]:port` for IPv6), as an array or one comma-separated
   * string. The probe connects to one of them and runs the query on that node only. Required.
   */
  ContactPoints: stringListField(
    'nodes to contact, host or host:port, as an array or a comma-separated list',
  ).optional(),
  /** Native protocol port for contact points that name none. Default 9042. */
  Port: portField('native protocol port for contact points without one').default(cassandraDefaultPort),
  /** Keyspace the session uses (`USE`); the run fails when it does not exist. Omitted: no keyspace. */
  Keyspace: z
    .string()
    .min(1, 'must be a non-empty keyspace name')
    .optional()
    .describe('keyspace of the session'),
  /** User for PasswordAuthenticator. Omitted: no authentication. */
  Username: z
    .string()
    .min(1, 'must be a non-empty user name')
    .optional()
    .describe('user for PasswordAuthenticator'),
  /** Password of Username; supply it from the environment. */
  Password: secretString('password of Username; supply it from the environment').optional(),
  /**
   * CQL run on the session; it must be a SELECT (the probe never writes). Default
   * `SELECT release_version FROM system.local`. Unqualified tables resolve in Keyspace.
   */
  HealthQuery: textField('CQL SELECT run on the session').default(defaultCassandraHealthQuery),
};

/** Code options of addCassandraHealth, in the configuration's shape. */
export type CassandraHealthOptions = ProbeOptions<typeof cassandraHealthEntryShape>;

/** Contact points in the driver's form, each with its port: `host:port` or `[ipv6]:port`. */
export function cassandraContactPoints(contactPoints: readonly string[], defaultPort: number): string[] {
  return contactPoints.map((contactPoint) => {
    const { host, port } = parseEndpoint(contactPoint, { port: defaultPort });
    return `${host.includes(':') ? `[${host}]` : host}:${port}`;
  });
}

export function validateCassandraHealthEntry(
  entry: {
    ContactPoints?: string[];
    Port: number;
    Username?: string;
    Password?: string;
    HealthQuery: string;
  },
  issue: (field: string, message: string) => void,
): void {
  if (!entry.ContactPoints || entry.ContactPoints.length === 0) {
    issue('ContactPoints', 'is required: one or more nodes, for example "cassandra-1,cassandra-2:9042"');
  } else {
    entry.ContactPoints.forEach((contactPoint, index) => {
      try {
        const parsed = parseEndpoint(contactPoint, { port: entry.Port });
        if (parsed.protocol || parsed.path !== '/') throw new Error('not host:port');
      } catch {
        issue(
          `ContactPoints:${index}`,
          'must be host or host:port (or [ipv6]:port), for example cassandra-1:9042',
        );
      }
    });
  }
  if (entry.Password && !entry.Username) issue('Username', 'is required when Password is set');
  if (entry.Username && !entry.Password) issue('Password', 'is required when Username is set');
  if (!/^\s*SELECT\s/i.test(entry.HealthQuery)) {
    issue('HealthQuery', 'must be a CQL SELECT statement: the probe never writes');
  }
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Cassandra` section. */
export const cassandraHealthOptionsSchema = probeSectionSchema({
  entryShape: cassandraHealthEntryShape,
  validateEntry: validateCassandraHealthEntry,
});
