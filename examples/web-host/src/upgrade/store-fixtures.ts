import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Stored state as files, the way an operator would back it up: a file store's folder as it is, a `pg_dump` of
 * the PostgreSQL store table, and every Redis key under the store prefix with its value. `dump*` captures the
 * state a release wrote; `load*` puts it into a fresh, isolated namespace (a folder, a table, a key prefix) for
 * the next release to open. PostgreSQL and Redis go through their own command-line clients (psql, pg_dump,
 * redis-cli), so the dump holds the server's own text and nothing of a driver.
 */

const run = promisify(execFile);

/** The table name in a PostgreSQL dump, replaced by the table a load fills. */
const tablePlaceholder = '__COREKIT_STORE_TABLE__';

export const postgresUrl = (): string =>
  process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const redisUrl = (): string => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Copies every file of a data folder (the file store's `stores/` and the packs' own files). */
export async function copyDataFolder(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  await cp(from, to, {
    recursive: true,
    filter: (source) => !source.endsWith('.tmp') && !source.endsWith('.pem'),
  });
}

/** Lists the files of a folder, relative to it (for reports). */
export async function filesOf(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** `pg_dump` of the store table (schema and rows), with the table's name made a placeholder. */
export async function dumpPostgresTable(table: string, file: string): Promise<void> {
  const { stdout } = await run(
    'pg_dump',
    ['--dbname', postgresUrl(), '--table', `public.${table}`, '--no-owner', '--no-privileges'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  await writeFile(file, stdout.split(table).join(tablePlaceholder));
}

/** Restores a `dumpPostgresTable` file as table `table` (which must not exist). */
export async function loadPostgresTable(file: string, table: string): Promise<void> {
  const sql = (await readFile(file, 'utf8')).split(tablePlaceholder).join(table);
  await pipeInto('psql', ['--quiet', '-v', 'ON_ERROR_STOP=1', '--dbname', postgresUrl()], sql);
}

/** Drops a table a load made. */
export async function dropPostgresTable(table: string): Promise<void> {
  await run('psql', ['--quiet', '--dbname', postgresUrl(), '-c', `DROP TABLE IF EXISTS public."${table}"`]);
}

type RedisValue =
  | { readonly type: 'hash'; readonly value: Record<string, string> }
  | { readonly type: 'zset'; readonly value: Array<[string, number]> }
  | { readonly type: 'string'; readonly value: string };

/** Every key under `prefix` (without the prefix) with its type and value. */
export async function dumpRedisPrefix(prefix: string, file: string): Promise<void> {
  const cli = (...args: string[]) =>
    run('redis-cli', ['-u', redisUrl(), ...args], { maxBuffer: 64 * 1024 * 1024 }).then(
      ({ stdout }) => stdout,
    );
  const keys = (await cli('--scan', '--pattern', `${prefix}*`)).split('\n').filter(Boolean).sort();
  const dump: Record<string, RedisValue> = {};
  for (const key of keys) {
    const type = (await cli('TYPE', key)).trim();
    const command =
      type === 'hash'
        ? ['HGETALL', key]
        : type === 'zset'
          ? ['ZRANGE', key, '0', '-1', 'WITHSCORES']
          : ['GET', key];
    if (type !== 'hash' && type !== 'zset' && type !== 'string')
      throw new Error(`Redis key ${key} is a ${type}`);
    dump[key.slice(prefix.length)] = {
      type,
      value: JSON.parse(await cli('--json', ...command)),
    } as RedisValue;
  }
  await writeFile(file, `${JSON.stringify(dump, null, 2)}\n`);
}

/** Writes a `dumpRedisPrefix` file's keys under `prefix` (RESP through `redis-cli --pipe`). */
export async function loadRedisPrefix(file: string, prefix: string): Promise<void> {
  const dump = JSON.parse(await readFile(file, 'utf8')) as Record<string, RedisValue>;
  const commands = Object.entries(dump).map(([key, entry]) => {
    const name = `${prefix}${key}`;
    if (entry.type === 'hash') return ['HSET', name, ...Object.entries(entry.value).flat()];
    if (entry.type === 'zset')
      return ['ZADD', name, ...entry.value.flatMap(([member, score]) => [String(score), member])];
    return ['SET', name, entry.value];
  });
  const resp = commands
    .map(
      (args) =>
        `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`,
    )
    .join('');
  const output = await pipeInto('redis-cli', ['-u', redisUrl(), '--pipe'], resp);
  if (!/errors: 0,/.test(output)) throw new Error(`redis-cli --pipe reported errors: ${output}`);
}

/** Deletes every key under `prefix`. */
export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const { stdout } = await run('redis-cli', ['-u', redisUrl(), '--scan', '--pattern', `${prefix}*`]);
  const keys = stdout.split('\n').filter(Boolean);
  if (keys.length > 0) await run('redis-cli', ['-u', redisUrl(), 'DEL', ...keys]);
}

/** Runs a command with `input` on its stdin; resolves with its stdout, rejects on a non-zero exit. */
function pipeInto(command: string, args: readonly string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} exited with ${code}: ${stderr || stdout}`)),
    );
    child.stdin.end(input);
  });
}
