import { Client, policies, types, type ClientOptions } from 'cassandra-driver';
import type { DependencyCheckResult } from '@corekit/abstractions';
import {
  abortable,
  describeError,
  healthy,
  unhealthy,
  type ProbeDefinition,
  type ProbeEntry,
} from '@corekit/probe-kit';
import {
  cassandraContactPoints,
  cassandraHealthEntryShape,
  validateCassandraHealthEntry,
} from './cassandra-health-options';
import { ControlHostPolicy } from './control-host-policy';

type CassandraHealthEntry = ProbeEntry<typeof cassandraHealthEntryShape>;

interface CassandraErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  innerErrors?: unknown;
}

/** Native protocol error codes (native_protocol_v4.spec, section 9) the probe names. */
const responseCodes: Readonly<Record<number, string>> = {
  0x0100: 'AUTHENTICATION_FAILED',
  0x1000: 'UNAVAILABLE',
  0x1001: 'OVERLOADED',
  0x1002: 'BOOTSTRAPPING',
  0x1200: 'READ_TIMEOUT',
  0x1300: 'READ_FAILURE',
  0x2000: 'QUERY_FAILED',
  0x2100: 'AUTHORIZATION_FAILED',
  0x2200: 'QUERY_FAILED',
};

/**
 * Client options for one dedicated session: one connection, no retries, no schema reads, no heartbeat, and
 * no DSE Insights reports (`monitorReporting`, which would send data). `applicationName` goes in STARTUP.
 * Both are driver options its typings omit.
 */
export function cassandraClientOptions(entry: CassandraHealthEntry, timeoutMs: number): ClientOptions {
  const options: ClientOptions & { monitorReporting: { enabled: boolean }; applicationName: string } = {
    contactPoints: cassandraContactPoints(entry.ContactPoints ?? [], entry.Port),
    // v4 is the highest protocol the driver speaks with Apache Cassandra; starting there saves the
    // negotiation round trip (and the extra connection) the driver's DSE-first default costs on every run.
    protocolOptions: { port: entry.Port, maxVersion: types.protocolVersion.v4 },
    ...(entry.Keyspace ? { keyspace: entry.Keyspace } : {}),
    ...(entry.Username ? { credentials: { username: entry.Username, password: entry.Password ?? '' } } : {}),
    policies: {
      loadBalancing: new ControlHostPolicy(),
      retry: new policies.retry.FallthroughRetryPolicy(),
    },
    pooling: {
      warmup: false,
      heartBeatInterval: 0,
      coreConnectionsPerHost: {
        [types.distance.local]: 1,
        [types.distance.remote]: 0,
        [types.distance.ignored]: 0,
      },
    },
    socketOptions: { connectTimeout: timeoutMs, readTimeout: timeoutMs, keepAlive: false },
    queryOptions: {
      prepare: false,
      isIdempotent: true,
      consistency: types.consistencies.localOne,
      fetchSize: 100,
    },
    isMetadataSyncEnabled: false,
    monitorReporting: { enabled: false },
    applicationName: 'corekit-health-probe',
  };
  return options;
}

function messageOf(error: CassandraErrorLike | undefined): string {
  const text = typeof error?.message === 'string' ? error.message.trim() : String(error);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Maps a driver error to a result naming what to fix. */
function cassandraFailure(
  error: unknown,
  entry: CassandraHealthEntry,
  entryPath: string,
): DependencyCheckResult {
  let failure = (error ?? {}) as CassandraErrorLike;
  if (failure.name === 'NoHostAvailableError') {
    const inner = Object.values((failure.innerErrors ?? {}) as Record<string, CassandraErrorLike>);
    if (inner.length === 0) {
      return unhealthy(
        'ENOTFOUND',
        `None of the contact points could be resolved or reached (${messageOf(failure)}) Check ${entryPath}:ContactPoints.`,
      );
    }
    failure = inner.find((candidate) => candidate?.name === 'AuthenticationError') ?? inner[0];
  }
  if (failure.name === 'AuthenticationError') {
    if (/provider not set/i.test(messageOf(failure))) {
      return unhealthy(
        'AUTHENTICATION_FAILED',
        `The node requires authentication: set ${entryPath}:Username and ${entryPath}:Password.`,
      );
    }
    return unhealthy(
      'AUTHENTICATION_FAILED',
      `Cassandra refused the credentials of user "${entry.Username ?? ''}": ${messageOf(failure)} Check ${entryPath}:Username and ${entryPath}:Password.`,
    );
  }
  if (failure.name === 'ResponseError' && typeof failure.code === 'number') {
    const reason = `${messageOf(failure)} (error 0x${failure.code.toString(16).padStart(4, '0')})`;
    if (failure.code === 0x2200 && /^Keyspace .* does not exist/i.test(messageOf(failure))) {
      return unhealthy(
        'KEYSPACE_NOT_FOUND',
        `Cassandra has no such keyspace: ${reason}. Check ${entryPath}:Keyspace.`,
      );
    }
    const code = responseCodes[failure.code] ?? 'CASSANDRA_ERROR';
    const fix =
      code === 'QUERY_FAILED' || code === 'AUTHORIZATION_FAILED' ? ` Check ${entryPath}:HealthQuery.` : '';
    return unhealthy(code, `Cassandra answered the health query with an error: ${reason}.${fix}`);
  }
  if (failure.name === 'OperationTimedOutError') {
    return unhealthy(
      'ETIMEDOUT',
      `The node did not answer within the read timeout (${messageOf(failure)}) Raise ${entryPath}:TimeoutSeconds if the node is slow.`,
    );
  }
  const described = describeError(failure);
  return unhealthy(described.code, described.message);
}

async function runHealthQuery(client: Client, entry: CassandraHealthEntry): Promise<DependencyCheckResult> {
  await client.connect();
  const result = await client.execute(entry.HealthQuery);
  const first = result.first() as Record<string, unknown> | null;
  const data: Record<string, unknown> = { rows: result.rowLength };
  const node = result.info?.queriedHost;
  if (node) data.node = String(node);
  if (first && typeof first.release_version === 'string') data.releaseVersion = first.release_version;
  if (entry.Keyspace) data.keyspace = entry.Keyspace;
  return healthy(
    `Cassandra node answered the health query${entry.Keyspace ? ` in keyspace "${entry.Keyspace}"` : ''}`,
    data,
  );
}

/**
 * The Cassandra probe: a dedicated client session (one connection to the contact node, no retries, no
 * schema reads) runs HealthQuery, then shuts down; an abort shuts it down at once.
 */
export const cassandraHealthProbe: ProbeDefinition<typeof cassandraHealthEntryShape> = {
  kind: 'Cassandra',
  entryShape: cassandraHealthEntryShape,
  validateEntry: validateCassandraHealthEntry,
  describeTarget: (entry) =>
    `${cassandraContactPoints(entry.ContactPoints ?? [], entry.Port).join(',')}${entry.Keyspace ? `/${entry.Keyspace}` : ''}`,
  async check(entry, context) {
    const client = new Client(cassandraClientOptions(entry, context.timeoutMs));
    try {
      return await abortable(runHealthQuery(client, entry), context.signal, () => {
        void client.shutdown().catch(() => undefined);
      });
    } catch (error) {
      if (context.signal.aborted) throw error;
      return cassandraFailure(error, entry, context.entryPath);
    } finally {
      if (!context.signal.aborted) await client.shutdown().catch(() => undefined);
    }
  },
};
