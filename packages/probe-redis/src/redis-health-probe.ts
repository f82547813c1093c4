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

/** A command's outcome as `[error, value]`, the shape of a pipeline reply. */
function settle(command: Promise<unknown>): Promise<[Error | null, unknown]> {
  return command.then(
    (value): [Error | null, unknown] => [null, value],
    (error: unknown): [Error | null, unknown] => [
      error instanceof Error ? error : new Error(String(error)),
      undefined,
    ],
  );
}

/** The first failure of a pipeline reply that is not a server reply (the connection dropped...), to rethrow. */
function connectionFailure(replies: ReadonlyArray<[Error | null, unknown]>): Error | undefined {
  return replies.map(([error]) => error).find((error): error is Error => error !== null && !isReply(error));
}

/**
 * The Redis probe: one dedicated ioredis connection per run with every retry, reconnect, offline queue and
 * ready check turned off. After connecting it sends, back to back in one round trip, AUTH (when a password is set), SELECT
 * (when Database is set) and PING, and requires PONG. The connection is closed before the run settles and
 * destroyed when the engine aborts the run.
 */
export const redisHealthProbe: ProbeDefinition<typeof redisHealthEntryShape> = {
  kind: 'Redis',
  entryShape: redisHealthEntryShape,
  validateEntry: validateRedisHealthEntry,
  describeTarget: (entry) =>
    `${formatHostPort(entry.Host!, entry.Port)}${entry.Database === undefined ? '' : `/${entry.Database}`}`,
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
    // ioredis' disconnect() half-closes and arms a timer that the socket's close event clears, so it is called
    // only while the socket is open: gracefully after a run, followed by destroy() when the run is aborted.
    const close = (now: boolean) => {
      const stream = client.stream;
      if (!stream) {
        client.disconnect();
      } else if (!stream.destroyed) {
        client.disconnect();
        if (now) stream.destroy();
      }
    };
    const destroy = () => close(true);
    // Connect, then send the commands back to back without waiting (one round trip, like a pipeline but
    // without ioredis' Pipeline object); one abortable around both keeps a run to one abort listener.
    const exchange = async () => {
      await client.connect().catch((error: unknown) => {
        throw socketError ?? error;
      });
      const commands: Array<Promise<unknown>> = [];
      if (entry.Password !== undefined) {
        commands.push(
          entry.Username !== undefined
            ? client.auth(entry.Username, entry.Password)
            : client.auth(entry.Password),
        );
      }
      if (entry.Database !== undefined) commands.push(client.select(entry.Database));
      commands.push(client.ping());
      return Promise.all(commands.map(settle));
    };
    try {
      const replies = await abortable(exchange(), signal, destroy);
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
        return unhealthy(
          'AUTHENTICATION_FAILED',
          `${target} requires authentication: ${replyText(pingError)}. Set ${entryPath}:Password (and Username for an ACL user).`,
        );
      }
      if (pingError) throw pingError;
      if (answer !== 'PONG') {
        return unhealthy(
          'UNEXPECTED_RESPONSE',
          `${target} answered PING with ${JSON.stringify(String(answer)).slice(0, 80)} instead of PONG. Check that Host and Port point at a Redis server.`,
        );
      }
      return healthy(
        `PING answered PONG at ${target}`,
        entry.Database === undefined ? {} : { database: entry.Database },
      );
    } finally {
      close(signal.aborted);
    }
  },
};
