import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ReplicaSet } from './replica-harness';

const run = promisify(execFile);
const postgresUrl = () => process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The server ends every change-feed connection named `connectionName`, as a failover or an idle-connection
 * reaper would: PostgreSQL `pg_terminate_backend` of the listening connections (`application_name`, for the
 * PostgreSQL store provider `corekit-store-feed public.<table>` cut to 63 characters), Redis `CLIENT KILL` of
 * the subscribing ones (the Redis store provider's `feedConnectionName`, `corekit-store-feed:<prefix>`).
 * Answers how many connections were ended (psql and redis-cli, as the harness uses them).
 */
export async function killFeedConnectionsNamed(
  provider: ReplicaSet['provider'],
  connectionName: string,
): Promise<number> {
  if (provider === 'postgresql') {
    const name = connectionName.slice(0, 63);
    const { stdout } = await run('psql', [
      postgresUrl(),
      '-Atc',
      `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '${name}'`,
    ]);
    return Number(stdout.trim());
  }
  const { stdout } = await run('redis-cli', ['-u', redisUrl(), 'CLIENT', 'LIST', 'TYPE', 'pubsub']);
  const ids = stdout
    .split('\n')
    .filter((line) => line.includes(` name=${connectionName} `))
    .map((line) => /(?:^|\s)id=(\d+)/.exec(line)?.[1])
    .filter((id): id is string => id !== undefined);
  for (const id of ids) await run('redis-cli', ['-u', redisUrl(), 'CLIENT', 'KILL', 'ID', id]);
  return ids.length;
}

/**
 * The server ends the change-feed connection of every replica of the set (see `killFeedConnectionsNamed`).
 * Answers how many connections were ended.
 */
export function killFeedConnections(set: ReplicaSet): Promise<number> {
  return killFeedConnectionsNamed(
    set.provider,
    set.provider === 'postgresql'
      ? `corekit-store-feed public.${set.isolation}`
      : `corekit-store-feed:corekit:replicas:${set.isolation}:`,
  );
}

/**
 * Keeps ending the set's feed connections (or those `target` ends) every `everyMs` (each reconnect is ended
 * again) until `stop()`: the replicas' feeds stay down meanwhile, so their surfaces report the degraded bound.
 */
export function keepFeedConnectionsDown(
  target: ReplicaSet | (() => Promise<number>),
  everyMs = 100,
): { stop(): Promise<void> } {
  const kill = typeof target === 'function' ? target : () => killFeedConnections(target);
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await kill().catch(() => 0);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
