import { MongoClient, type MongoClientOptions, type TopologyDescriptionChangedEvent } from 'mongodb';
import type { DependencyCheckResult } from '@corekit/abstractions';
import {
  abortable,
  describeError,
  healthy,
  stripUrlCredentials,
  unhealthy,
  type ProbeDefinition,
  type ProbeEntry,
} from '@corekit/probe-kit';
import {
  commandName,
  connectionStringParts,
  mongoDbHealthEntryShape,
  validateMongoDbHealthEntry,
} from './mongodb-health-options';

type MongoDbHealthEntry = ProbeEntry<typeof mongoDbHealthEntryShape>;

interface MongoErrorLike {
  name?: unknown;
  code?: unknown;
  codeName?: unknown;
  message?: unknown;
}

function hostLabel(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The connection string the driver gets: ConnectionString as given, or mongodb://Host:Port. */
export function mongoDbUrl(entry: MongoDbHealthEntry): string {
  return entry.ConnectionString
    ? entry.ConnectionString.trim()
    : `mongodb://${hostLabel(entry.Host!, entry.Port)}`;
}

/** Database the command runs against: Database, else the connection string's, else admin. */
export function selectedDatabase(entry: MongoDbHealthEntry): string {
  const fromString = entry.ConnectionString
    ? connectionStringParts(entry.ConnectionString)?.database
    : undefined;
  return entry.Database ?? fromString ?? 'admin';
}

/** Client options for one dedicated run: a pool of one, no retries, every driver timeout at the run's. */
export function mongoClientOptions(entry: MongoDbHealthEntry, timeoutMs: number): MongoClientOptions {
  return {
    appName: 'corekit-health-probe',
    maxPoolSize: 1,
    minPoolSize: 0,
    maxConnecting: 1,
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    socketTimeoutMS: timeoutMs,
    waitQueueTimeoutMS: timeoutMs,
    serverMonitoringMode: 'poll',
    retryReads: false,
    retryWrites: false,
    ...(entry.UseTls !== undefined ? { tls: entry.UseTls } : {}),
    ...(entry.AllowInsecureTls ? { tlsInsecure: true } : {}),
    ...(entry.DirectConnection !== undefined ? { directConnection: entry.DirectConnection } : {}),
    ...(entry.Username ? { auth: { username: entry.Username, password: entry.Password } } : {}),
    ...(entry.AuthSource ? { authSource: entry.AuthSource } : {}),
  };
}

function describeMongoDbTarget(entry: MongoDbHealthEntry): string {
  const hosts = entry.ConnectionString
    ? (connectionStringParts(entry.ConnectionString)?.hosts ?? 'mongodb')
    : hostLabel(entry.Host!, entry.Port);
  return `${hosts}/${selectedDatabase(entry)}`;
}

/** Maps a driver error to a result naming what to fix. */
function mongoDbFailure(error: unknown, entry: MongoDbHealthEntry, entryPath: string): DependencyCheckResult {
  const { name, code, codeName, message } = (error ?? {}) as MongoErrorLike;
  const raw = stripUrlCredentials(typeof message === 'string' ? message : String(error)).trim();
  const text = /[.!?]$/.test(raw) ? raw : `${raw}.`;
  const command = commandName(entry.HealthCommand);
  const database = selectedDatabase(entry);
  const credentialKeys = entry.Username
    ? `${entryPath}:Username, ${entryPath}:Password and ${entryPath}:AuthSource`
    : `the credentials in ${entryPath}:ConnectionString and ${entryPath}:AuthSource`;
  if (code === 18 || codeName === 'AuthenticationFailed') {
    const user = entry.Username ? ` of user "${entry.Username}"` : '';
    const source =
      entry.AuthSource ??
      (entry.ConnectionString ? connectionStringParts(entry.ConnectionString)?.authSource : undefined);
    return unhealthy(
      'AUTHENTICATION_FAILED',
      `MongoDB refused the credentials${user}${source ? ` (authSource "${source}")` : ''}: ${text} Check ${credentialKeys}.`,
    );
  }
  if (code === 13 || codeName === 'Unauthorized') {
    const authenticated = Boolean(
      entry.Username ||
      (entry.ConnectionString && connectionStringParts(entry.ConnectionString)?.hasCredentials),
    );
    const fix = authenticated
      ? `Grant the user that action or change ${entryPath}:HealthCommand.`
      : `Set ${entryPath}:Username and ${entryPath}:Password, or change ${entryPath}:HealthCommand.`;
    return unhealthy(
      'AUTHORIZATION_FAILED',
      `MongoDB refused "${command}" on database "${database}"${authenticated ? ' for this user' : ' without credentials'}: ${text} ${fix}`,
    );
  }
  if (name === 'MongoServerError' && typeof code === 'number') {
    const label = typeof codeName === 'string' && codeName ? codeName : `code ${code}`;
    return unhealthy(
      'COMMAND_FAILED',
      `MongoDB answered "${command}" on database "${database}" with ${label}: ${text} Check ${entryPath}:HealthCommand and ${entryPath}:Database.`,
    );
  }
  const described = describeError({ message: text, code: typeof code === 'string' ? code : undefined });
  if (described.code !== 'PROBE_FAILED' && described.code !== 'AUTHENTICATION_FAILED')
    return unhealthy(described.code, described.message);
  if (name === 'MongoServerSelectionError') {
    return unhealthy(
      'SERVER_SELECTION_FAILED',
      `No suitable MongoDB server answered (${text}). Check ${entryPath}:${entry.ConnectionString ? 'ConnectionString' : 'Host'}, ${entryPath}:UseTls and ${entryPath}:DirectConnection (a replica set needs its primary unless DirectConnection is true).`,
    );
  }
  return unhealthy(
    'MONGODB_ERROR',
    `MongoDB failed (${typeof name === 'string' && name ? name : 'error'}): ${text}`,
  );
}

/**
 * Rejects as soon as every server of the deployment is known to be unreachable (each one's monitor check
 * failed), instead of letting server selection wait out its timeout: a refused connection then fails fast.
 */
function whenUnreachable(client: MongoClient): { promise: Promise<never>; dispose(): void } {
  let listener: ((event: TopologyDescriptionChangedEvent) => void) | undefined;
  const promise = new Promise<never>((_resolve, reject) => {
    listener = (event) => {
      const servers = [...event.newDescription.servers.values()];
      const failed = servers.filter((server) => server.type === 'Unknown' && server.error);
      if (servers.length > 0 && failed.length === servers.length) reject(failed[0].error);
    };
    client.on('topologyDescriptionChanged', listener);
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => listener && client.off('topologyDescriptionChanged', listener) };
}

/**
 * The MongoDB probe: a dedicated client (pool of one, no retries) runs HealthCommand against the selected
 * database, then closes; an abort closes it at once.
 */
export const mongoDbHealthProbe: ProbeDefinition<typeof mongoDbHealthEntryShape> = {
  kind: 'MongoDb',
  entryShape: mongoDbHealthEntryShape,
  validateEntry(entry, issue) {
    validateMongoDbHealthEntry(entry, issue);
    if (entry.ConnectionString && connectionStringParts(entry.ConnectionString)) {
      try {
        // Parses every option of the string without connecting, so a bad option fails at registration.
        new MongoClient(mongoDbUrl(entry), mongoClientOptions(entry, 1000));
      } catch (error) {
        const reason =
          error && typeof (error as MongoErrorLike).message === 'string'
            ? (error as { message: string }).message
            : 'invalid';
        issue('ConnectionString', `is not accepted by the MongoDB driver: ${stripUrlCredentials(reason)}`);
      }
    }
  },
  describeTarget: describeMongoDbTarget,
  async check(entry, context) {
    const client = new MongoClient(mongoDbUrl(entry), mongoClientOptions(entry, context.timeoutMs));
    const database = selectedDatabase(entry);
    const command = commandName(entry.HealthCommand);
    const unreachable = whenUnreachable(client);
    try {
      const run = Promise.race([client.db(database).command(entry.HealthCommand), unreachable.promise]);
      const reply = await abortable(run, context.signal, () => {
        void client.close().catch(() => undefined);
      });
      return healthy(`MongoDB answered "${command}" on database "${database}"`, {
        database,
        command,
        ok: reply.ok,
      });
    } catch (error) {
      if (context.signal.aborted) throw error;
      return mongoDbFailure(error, entry, context.entryPath);
    } finally {
      unreachable.dispose();
      if (!context.signal.aborted) await client.close().catch(() => undefined);
    }
  },
};
