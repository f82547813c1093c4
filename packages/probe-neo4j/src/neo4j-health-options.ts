import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { portField, probeSectionSchema, textField, type ProbeOptions } from '@corekit/probe-kit';

/** The URI schemes the Neo4j driver accepts: routed (`neo4j`) or direct (`bolt`), plain, TLS (`+s`) or TLS trusting any certificate (`+ssc`). */
export const neo4jSchemes = ['neo4j', 'neo4j+s', 'neo4j+ssc', 'bolt', 'bolt+s', 'bolt+ssc'] as const;

/** Neo4j's Bolt port when neither Uri nor Port names one. */
export const neo4jDefaultPort = 7687;

/** Fields of one `Engine:Observability:DependencyHealth:Neo4j:Dependencies:<n>` entry, besides the common ones. */
export const neo4jHealthEntryShape = {
  /**
   * Full driver URI, `neo4j://graph.internal:7687` or `bolt+s://graph.example.com`. Takes the place of
   * Host, Port and Scheme (set one or the other). Query parameters are the routing context of `neo4j`
   * schemes. It must not carry credentials: use Username and Password.
   */
  Uri: z
    .string()
    .min(1, 'must be a non-empty URI')
    .optional()
    .describe('driver URI such as neo4j://host:7687; replaces Host, Port and Scheme'),
  /** Host name or address of a Neo4j server (or of a cluster member for routing schemes), when Uri is not set. */
  Host: z
    .string()
    .min(1, 'must be a non-empty host name')
    .optional()
    .describe('Neo4j host, when Uri is not set'),
  /** Bolt port used with Host. Default 7687; ignored when Uri is set (put the port in the URI). */
  Port: portField('Bolt port used with Host').default(neo4jDefaultPort),
  /**
   * URI scheme used with Host. Default `neo4j` (routed: the driver asks the server for a routing table and
   * runs the query on a reader). `bolt` talks to that one server only. `+s` adds TLS with the system CAs,
   * `+ssc` TLS that trusts any certificate (test setups only).
   */
  Scheme: z
    .enum(neo4jSchemes, { error: `must be one of ${neo4jSchemes.join(', ')}` })
    .default('neo4j')
    .describe('URI scheme used with Host'),
  /** Database the session runs the health query against. Omitted: the user's home (default) database. */
  Database: z
    .string()
    .min(1, 'must be a non-empty database name')
    .optional()
    .describe("database of the session; omitted: the server's default database"),
  /** User of basic authentication. Omitted: no authentication (a server with auth disabled). */
  Username: z
    .string()
    .min(1, 'must be a non-empty user name')
    .optional()
    .describe('user name for basic authentication'),
  /** Password of Username. Required with Username; supply it from the environment. */
  Password: secretString('password of Username; supply it from the environment').optional(),
  /**
   * Cypher run in a read-access session (so a write query is refused by the server). Default `RETURN 1`.
   * Every record is consumed; keep it small.
   */
  HealthQuery: textField('Cypher health query, run in a read-access session').default('RETURN 1'),
};

/** Code options of addNeo4jHealth, in the configuration's shape. */
export type Neo4jHealthOptions = ProbeOptions<typeof neo4jHealthEntryShape>;

/** The driver URI of an entry: Uri as given, or Scheme://Host:Port. */
export function neo4jUri(entry: { Uri?: string; Host?: string; Port: number; Scheme: string }): string {
  if (entry.Uri) return entry.Uri.trim();
  const host = entry.Host!.includes(':') ? `[${entry.Host}]` : entry.Host;
  return `${entry.Scheme}://${host}:${entry.Port}`;
}

export function validateNeo4jHealthEntry(
  entry: { Uri?: string; Host?: string; Username?: string; Password?: string },
  issue: (field: string, message: string) => void,
): void {
  if (entry.Uri && entry.Host)
    issue('Host', 'must not be set together with Uri: use either Uri, or Host with Port and Scheme');
  if (!entry.Uri && !entry.Host)
    issue('Uri', 'is required (or Host): the Neo4j address, for example neo4j://graph.internal:7687');
  if (entry.Uri) {
    let url: URL | undefined;
    try {
      url = new URL(entry.Uri.trim());
    } catch {
      issue('Uri', 'must be a URI such as neo4j://graph.internal:7687');
    }
    if (url) {
      const scheme = url.protocol.replace(/:$/, '');
      if (!(neo4jSchemes as readonly string[]).includes(scheme))
        issue('Uri', `must use one of the schemes ${neo4jSchemes.join(', ')}, got "${scheme}"`);
      if (url.username || url.password)
        issue('Uri', 'must not carry credentials: set Username and Password instead');
      if (!url.hostname) issue('Uri', 'has no host');
    }
  }
  if (entry.Username && !entry.Password) issue('Password', 'is required when Username is set');
  if (entry.Password && !entry.Username) issue('Username', 'is required when Password is set');
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Neo4j` section. */
export const neo4jHealthOptionsSchema = probeSectionSchema({
  entryShape: neo4jHealthEntryShape,
  validateEntry: validateNeo4jHealthEntry,
});
