// One namespace of a store for the upgrade test: a folder (the File store), a table (PostgreSQL) or a key prefix
// (Redis), with the environment that puts a host's stores there, the raw text of one store (to see the envelope
// a write leaves) and its removal.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const upgradeProviders = ['file', 'postgresql', 'redis'] as const;
export type UpgradeProvider = (typeof upgradeProviders)[number];

export interface UpgradeNamespace {
  /** The data folder of both hosts (SAMPLE_DATA_DIRECTORY: the File store's `stores/`, the packs' own files). */
  readonly dataDirectory: string;
  /** `Engine__Stores__*` (none for the File store) and SAMPLE_DATA_DIRECTORY. */
  readonly environment: Readonly<Record<string, string>>;
  /** The raw stored text of store `name` (file contents, table rows, Redis values). */
  storeText(name: string): Promise<string>;
  remove(): Promise<void>;
}

/** A fresh namespace of `provider` on the servers of `postgresUrl` and `redisUrl`. */
export function createUpgradeNamespace(
  provider: UpgradeProvider,
  postgresUrl: string,
  redisUrl: string,
): UpgradeNamespace {
  const dataDirectory = mkdtempSync(path.join(os.tmpdir(), `corekit-registry-upgrade-${provider}-`));
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const removeFolder = () => rmSync(dataDirectory, { recursive: true, force: true });
  if (provider === 'file') {
    return {
      dataDirectory,
      environment: { SAMPLE_DATA_DIRECTORY: dataDirectory },
      storeText: async (name) => readFileSync(path.join(dataDirectory, 'stores', `${name}.json`), 'utf8'),
      remove: async () => removeFolder(),
    };
  }
  if (provider === 'postgresql') {
    const table = `corekit_registry_upgrade_${suffix}`;
    const psql = (sql: string) =>
      run('psql', ['--dbname', postgresUrl, '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql]).then(
        ({ stdout }) => stdout,
      );
    return {
      dataDirectory,
      environment: {
        SAMPLE_DATA_DIRECTORY: dataDirectory,
        Engine__Stores__Provider: 'PostgreSql',
        Engine__Stores__PostgreSql__ConnectionString: postgresUrl,
        Engine__Stores__PostgreSql__TableName: table,
      },
      storeText: (name) => psql(`SELECT value FROM public."${table}" WHERE store_name = '${name}'`),
      remove: async () => {
        await psql(`DROP TABLE IF EXISTS public."${table}"`);
        removeFolder();
      },
    };
  }
  const prefix = `corekit:registry-upgrade:${suffix}:`;
  const cli = (...args: string[]) =>
    run('redis-cli', ['-u', redisUrl, ...args], { maxBuffer: 64 * 1024 * 1024 }).then(({ stdout }) => stdout);
  const keys = async (pattern: string) =>
    (await cli('--scan', '--pattern', pattern)).split('\n').filter(Boolean);
  return {
    dataDirectory,
    environment: {
      SAMPLE_DATA_DIRECTORY: dataDirectory,
      Engine__Stores__Provider: 'Redis',
      Engine__Stores__Redis__Url: redisUrl,
      Engine__Stores__Redis__KeyPrefix: prefix,
    },
    storeText: async (name) => {
      const values: string[] = [];
      for (const key of await keys(`${prefix}{${name}}*`)) {
        const type = (await cli('TYPE', key)).trim();
        if (type === 'hash') values.push(await cli('HGETALL', key));
        else if (type === 'string') values.push(await cli('GET', key));
      }
      return values.join('\n');
    },
    remove: async () => {
      const found = await keys(`${prefix}*`);
      if (found.length > 0) await cli('DEL', ...found);
      removeFolder();
    },
  };
}
