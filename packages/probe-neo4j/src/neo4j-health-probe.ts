import neo4j, { type AuthToken, type Session } from 'neo4j-driver';
import type { DependencyCheckResult } from '@corekit/abstractions';
import {
  abortable,
  describeError,
  healthy,
  unhealthy,
  type ProbeDefinition,
  type ProbeEntry,
  withTrackedSockets,
} from '@corekit/probe-kit';
import { neo4jHealthEntryShape, neo4jUri, validateNeo4jHealthEntry } from './neo4j-health-options';

type Neo4jHealthEntry = ProbeEntry<typeof neo4jHealthEntryShape>;

/** Bolt's `none` scheme (what `neo4j.auth.none()` builds at runtime; its typings omit it), for servers with auth disabled. */
const noAuthentication: AuthToken = { scheme: 'none', credentials: '' };

interface Neo4jErrorLike {
  code?: unknown;
  message?: unknown;
}

/** scheme://host:port[/database], never credentials or routing context. */
function describeNeo4jTarget(entry: Neo4jHealthEntry): string {
  const url = new URL(neo4jUri(entry));
  return `${url.protocol}//${url.host}${entry.Database ? `/${entry.Database}` : ''}`;
}

/** Maps a neo4j-driver error (status codes such as `Neo.ClientError.Security.Unauthorized`) to a result naming what to fix. */
function neo4jFailure(error: unknown, entry: Neo4jHealthEntry, entryPath: string): DependencyCheckResult {
  const { code, message } = (error ?? {}) as Neo4jErrorLike;
  const status = typeof code === 'string' ? code : '';
  const reason = `${status ? `${status}: ` : ''}${typeof message === 'string' ? message : String(error)}`;
  if (
    status === 'Neo.ClientError.Security.Unauthorized' ||
    status === 'Neo.ClientError.Security.AuthenticationRateLimit'
  ) {
    return unhealthy(
      'AUTHENTICATION_FAILED',
      `Neo4j refused the credentials${entry.Username ? ` of user "${entry.Username}"` : ''} (${reason}). Check ${entryPath}:Username and ${entryPath}:Password.`,
    );
  }
  if (status === 'Neo.ClientError.Database.DatabaseNotFound') {
    return unhealthy(
      'DATABASE_NOT_FOUND',
      `Neo4j has no database "${entry.Database ?? ''}" (${reason}). Check ${entryPath}:Database.`,
    );
  }
  if (status.startsWith('Neo.ClientError.Security.')) {
    return unhealthy(
      'AUTHORIZATION_FAILED',
      `Neo4j refused the health query for this user (${reason}). Grant the user read access or change ${entryPath}:HealthQuery.`,
    );
  }
  if (status.startsWith('Neo.ClientError.Statement.') || status.startsWith('Neo.ClientError.Procedure.')) {
    return unhealthy(
      'QUERY_FAILED',
      `Neo4j rejected the health query (${reason}). Check ${entryPath}:HealthQuery (it runs in a read-access session).`,
    );
  }
  if (status === 'ServiceUnavailable' || status === 'SessionExpired' || status === '') {
    // The driver wraps socket errors in its own text ("... Caused by: connect ECONNREFUSED 127.0.0.1:7687").
    const described = describeError({ message: typeof message === 'string' ? message : String(error) });
    if (described.code !== 'PROBE_FAILED') return unhealthy(described.code, described.message);
    return unhealthy(
      'UNAVAILABLE',
      `Neo4j could not be reached (${reason}). Check ${entryPath}:${entry.Uri ? 'Uri' : 'Host'}, the scheme's TLS setting and that the server is running.`,
    );
  }
  return unhealthy(status, `Neo4j answered ${reason}.`);
}

async function runHealthQuery(session: Session, entry: Neo4jHealthEntry): Promise<DependencyCheckResult> {
  const result = await session.run(entry.HealthQuery);
  const { server, database } = result.summary;
  const data: Record<string, unknown> = { records: result.records.length };
  if (server.agent) data.server = server.agent;
  if (server.protocolVersion !== undefined) data.protocolVersion = server.protocolVersion;
  if (database?.name) data.database = database.name;
  return healthy(
    `Neo4j answered the health query${database?.name ? ` on database "${database.name}"` : ''}`,
    data,
  );
}

/** The Neo4j probe: a dedicated driver (pool of one) and a read-access session run HealthQuery, then both close. */
export const neo4jHealthProbe: ProbeDefinition<typeof neo4jHealthEntryShape> = {
  kind: 'Neo4j',
  entryShape: neo4jHealthEntryShape,
  validateEntry: validateNeo4jHealthEntry,
  describeTarget: describeNeo4jTarget,
  async check(entry, context) {
    const uri = neo4jUri(entry);
    const driver = neo4j.driver(
      uri,
      entry.Username ? neo4j.auth.basic(entry.Username, entry.Password ?? '') : noAuthentication,
      {
        maxConnectionPoolSize: 1,
        connectionAcquisitionTimeout: context.timeoutMs,
        connectionTimeout: context.timeoutMs,
        maxTransactionRetryTime: 0,
        disableLosslessIntegers: true,
        userAgent: 'corekit-probe-neo4j',
        logging: { level: 'error', logger: () => undefined },
      },
    );
    const session = driver.session({
      defaultAccessMode: neo4j.session.READ,
      ...(entry.Database ? { database: entry.Database } : {}),
    });
    const tracked = withTrackedSockets(() => runHealthQuery(session, entry), {
      tls: /^[a-z0-9]+\+s(sc)?:/i.test(uri),
    });
    let aborted = false;
    try {
      return await abortable(tracked.result, context.signal, () => {
        aborted = true;
        // The driver cannot cancel a connection still in its handshake; destroying the run's sockets can.
        tracked.sockets.destroy();
        void driver.close().catch(() => undefined);
      });
    } catch (error) {
      if (context.signal.aborted) throw error;
      return neo4jFailure(error, entry, context.entryPath);
    } finally {
      if (!aborted) {
        await session.close().catch(() => undefined);
        await driver.close().catch(() => undefined);
      }
    }
  },
};
