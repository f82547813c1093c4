import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ReplicaSet } from './replica-harness';

const run = promisify(execFile);
const postgresUrl = () => process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The server ends the change-feed connection of every replica of the set, as a failover or an idle-connection
 * reaper would: PostgreSQL `pg_terminate_backend` of the listening connections (`application_name`
 * `corekit-store-feed public.<table>`), Redis `CLIENT KILL` of the subscribing ones (`corekit-store-feed:<prefix>`).
 * Answers how many connections were ended (psql and redis-cli, as the harness uses them).
 */
export async function killFeedConnections(set: ReplicaSet): Promise<number> {
  if (set.provider === 'postgresql') {
    const name = `corekit-store-feed public.${set.isolation}`.slice(0, 63);
    const { stdout } = await run('psql', [
      postgresUrl(),
      '-Atc',
      `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '${name}'`,
    ]);
    return Number(stdout.trim());
  }
  const name = `corekit-store-feed:corekit:replicas:${set.isolation}:`;
  const { stdout } = await run('redis-cli', ['-u', redisUrl(), 'CLIENT', 'LIST', 'TYPE', 'pubsub']);
  const ids = stdout
    .split('\n')
    .filter((line) => line.includes(` name=${name} `))
    .map((line) => /(?:^|\s)id=(\d+)/.exec(line)?.[1])
    .filter((id): id is string => id !== undefined);
  for (const id of ids) await run('redis-cli', ['-u', redisUrl(), 'CLIENT', 'KILL', 'ID', id]);
  return ids.length;
}

/**
 * Keeps ending the set's feed connections every `everyMs` (each reconnect is ended again) until `stop()`:
 * the replicas' feeds stay down meanwhile, so their surfaces report the degraded bound.
 */
export function keepFeedConnectionsDown(set: ReplicaSet, everyMs = 100): { stop(): Promise<void> } {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await killFeedConnections(set).catch(() => 0);
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
