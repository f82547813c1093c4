import { Redis } from 'ioredis';
import { abortable, formatHostPort, healthy, unhealthy, type ProbeDefinition } from '@corekit/probe-kit';
import { redisHealthEntryShape, validateRedisHealthEntry } from './redis-health-options';

/** An error reply of the server (`-ERR ...`, `-WRONGPASS ...`), as opposed to a connection failure. */
function isReply(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ReplyError';
}

/** A reply's text without its final period, so a sentence can follow it. */
function replyText(error: Error): string {
  return error.message.replace(/\.\s*$/, '');
}

/** The first failure of a pipeline reply that is not a server reply (the connection dropped...), to rethrow. */
function connectionFailure(replies: ReadonlyArray<[Error | null, unknown]>): Error | undefined {
  return replies.map(([error]) => error).find((error): error is Error => error !== null && !isReply(error));
}

/**
 * The Redis probe: one dedicated ioredis connection per run with every retry, reconnect, offline queue and
 * ready check turned off. After connecting it sends, in one pipeline, AUTH (when a password is set), SELECT
 * (when Database is set) and PING, and requires PONG. The connection is closed before the run settles and
 * destroyed when the engine aborts the run.
 */
export const redisHealthProbe: ProbeDefinition<typeof redisHealthEntryShape> = {
  kind: 'Redis',
  entryShape: redisHealthEntryShape,
  validateEntry: validateRedisHealthEntry,
  describeTarget: (entry) => `${formatHostPort(entry.Host!, entry.Port)}${entry.Database === undefined ? '' : `/${entry.Database}`}`,
  async check(entry, { signal, timeoutMs, entryPath }) {
    const target = formatHostPort(entry.Host!, entry.Port);
    const client = new Redis({
      host: entry.Host!,
      port: entry.Port,
      lazyConnect: true,
      enableOfflineQueue: false,
      enableReadyCheck: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      reconnectOnError: () => false,
      autoResendUnfulfilledCommands: false,
      autoResubscribe: false,
      disableClientInfo: true,
      connectTimeout: timeoutMs,
    });
    // ioredis rejects a failed connect with a generic "Connection is closed."; the cause arrives as an error
    // event (without a listener ioredis would also print it).
    let socketError: Error | undefined;
    client.on('error', (error: Error) => {
      socketError ??= error;
    });
    // Closes the connection now. ioredis' own disconnect() only half-closes and arms a timer that is
    // cleared by the socket's close event, so it is called only while the socket is still open.
    const destroy = () => {
      const stream = client.stream;
      if (!stream) {
        client.disconnect();
      } else if (!stream.destroyed) {
        client.disconnect();
        stream.destroy();
      }
    };
    try {
      await abortable(client.connect(), signal, destroy).catch((error: unknown) => {
        throw socketError ?? error;
      });
      const pipeline = client.pipeline();
      if (entry.Password !== undefined) {
        if (entry.Username !== undefined) pipeline.auth(entry.Username, entry.Password);
        else pipeline.auth(entry.Password);
      }
      if (entry.Database !== undefined) pipeline.select(entry.Database);
      pipeline.ping();
      const replies = (await abortable(pipeline.exec(), signal, destroy)) ?? [];
      const failure = connectionFailure(replies);
      if (failure) throw failure;
      let index = 0;
      if (entry.Password !== undefined) {
        const [error] = replies[index++] ?? [];
        if (error) {
          return unhealthy(
            'AUTHENTICATION_FAILED',
            `${target} refused AUTH${entry.Username === undefined ? '' : ` for user "${entry.Username}"`}: ${replyText(error)}. Check ${entryPath}:Username and ${entryPath}:Password.`,
          );
        }
      }
      if (entry.Database !== undefined) {
        const [error] = replies[index++] ?? [];
        if (error) {
          return unhealthy(
            'DATABASE_SELECT_FAILED',
            `${target} refused SELECT ${entry.Database}: ${replyText(error)}. Check ${entryPath}:Database against the server's number of databases (and that it is not a cluster, which only has database 0).`,
          );
        }
      }
      const [pingError, answer] = replies[index] ?? [];
      if (pingError && /^NOAUTH/.test(pingError.message)) {
        return unhealthy('AUTHENTICATION_FAILED', `${target} requires authentication: ${replyText(pingError)}. Set ${entryPath}:Password (and Username for an ACL user).`);
      }
      if (pingError) throw pingError;
      if (answer !== 'PONG') {
        return unhealthy('UNEXPECTED_RESPONSE', `${target} answered PING with ${JSON.stringify(String(answer)).slice(0, 80)} instead of PONG. Check that Host and Port point at a Redis server.`);
      }
      return healthy(`PING answered PONG at ${target}`, entry.Database === undefined ? {} : { database: entry.Database });
    } finally {
      destroy();
    }
  },
};
