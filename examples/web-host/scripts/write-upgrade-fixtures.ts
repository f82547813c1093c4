/**
 * Writes the fixtures of the upgrade test (src/upgrade/stored-state-upgrade.test.ts) with a previous release of
 * the packages: the sample host of commit <commit> (its sources, from `git archive`, run through tsx with this
 * checkout's node_modules) on the file store, PostgreSQL and Redis in turn, each in a namespace of its own. On
 * each, it writes the scenario's state through the host's routes (src/upgrade/upgrade-scenario.ts), restarts the
 * host, records what the surfaces answer on the state it kept, stops it and saves the stores: the data folder, a pg_dump of the table and the
 * Redis keys. Run from examples/web-host, with PostgreSQL and Redis on POSTGRES_URL / REDIS_URL:
 *
 *   pnpm exec tsx --tsconfig tsconfig.run.json scripts/write-upgrade-fixtures.ts <commit>
 *
 * The previous release installed from a registry writes the same scenario in packages/release-roundtrip's upgrade
 * test; these fixtures keep the state of every pack of the sample (docs/releasing.md, "The upgrade tests").
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTsxProcess } from '@corekit/testing/child-process';
import {
  copyDataFolder,
  deleteRedisPrefix,
  dropPostgresTable,
  dumpPostgresTable,
  dumpRedisPrefix,
  filesOf,
  postgresUrl,
  redisUrl,
} from '../src/upgrade/store-fixtures';
import {
  upgradeFixturesFolder,
  upgradeProviders,
  type UpgradeProvider,
} from '../src/upgrade/upgrade-fixtures';
import {
  hostAt,
  readUpgradeSurfaces,
  upgradeHostEnvironment,
  writeUpgradeState,
} from '../src/upgrade/upgrade-scenario';

const commit = process.argv[2];
if (!commit) throw new Error('usage: write-upgrade-fixtures.ts <commit of the previous release>');
const checkout = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const git = (...args: string[]) => execFileSync('git', args, { cwd: checkout, encoding: 'utf8' }).trim();
const sourceCommit = git('rev-parse', `${commit}^{commit}`);

/** The previous release's tree, with this checkout's installed dependencies and its own console build. */
async function previousRelease(): Promise<string> {
  const tree = await mkdtemp(path.join(os.tmpdir(), 'corekit-upgrade-source-'));
  execFileSync('sh', ['-c', `git archive ${sourceCommit} | tar -x -C "${tree}"`], { cwd: checkout });
  for (const folder of ['.', ...(await workspaceFolders())]) {
    const modules = path.join(checkout, folder, 'node_modules');
    if (existsSync(modules) && existsSync(path.join(tree, folder))) {
      await symlink(modules, path.join(tree, folder, 'node_modules'));
    }
  }
  execFileSync(process.execPath, ['scripts/build-ui.mjs', '--if-missing'], {
    cwd: path.join(tree, 'packages/console'),
  });
  return tree;
}

async function workspaceFolders(): Promise<string[]> {
  const folders: string[] = [];
  for (const parent of ['packages', 'examples', 'bench']) {
    const names = await readdir(path.join(checkout, parent)).catch(() => [] as string[]);
    folders.push(...names.map((name) => path.join(parent, name)));
  }
  return folders;
}

function storeEnvironment(
  provider: UpgradeProvider,
  namespace: string,
  data: string,
): Record<string, string> {
  if (provider === 'postgresql')
    return {
      Engine__Stores__Provider: 'PostgreSql',
      Engine__Stores__PostgreSql__ConnectionString: postgresUrl(),
      Engine__Stores__PostgreSql__TableName: namespace,
    };
  if (provider === 'redis')
    return {
      Engine__Stores__Provider: 'Redis',
      Engine__Stores__Redis__Url: redisUrl(),
      Engine__Stores__Redis__KeyPrefix: `${namespace}:`,
    };
  return { SAMPLE_DATA_DIRECTORY: data };
}

/** Starts the previous release's sample host on the namespace, runs `use` against it, stops it. */
async function withPreviousHost<T>(
  tree: string,
  environment: Record<string, string>,
  use: (request: ReturnType<typeof hostAt>) => Promise<T>,
): Promise<T> {
  const host = startTsxProcess({
    cwd: path.join(tree, 'examples/web-host'),
    entry: 'src/main.ts',
    tsconfig: 'tsconfig.run.json',
    environment: { PORT: '0', ...upgradeHostEnvironment, ...environment },
  });
  try {
    const line = await host.waitForLine('Core sample host on', 300_000);
    return await use(hostAt(/https?:\/\/\S+/.exec(line)![0].replace('//localhost:', '//127.0.0.1:')));
  } finally {
    host.child.kill('SIGTERM');
    await host.exited;
  }
}

/**
 * One provider: the previous release writes and stops; started again on its own state, its surfaces are read
 * (what survives a restart of that release is what the next release must show), then the stores are saved.
 */
async function capture(
  tree: string,
  provider: UpgradeProvider,
  fixtures: string,
): Promise<Record<string, unknown>> {
  const namespace = `upgrade_source_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const data = await mkdtemp(path.join(os.tmpdir(), `corekit-upgrade-${provider}-`));
  const environment = storeEnvironment(provider, namespace, data);
  await withPreviousHost(tree, environment, writeUpgradeState);
  const surfaces = await withPreviousHost(tree, environment, readUpgradeSurfaces);
  if (provider === 'file') {
    await copyDataFolder(data, path.join(fixtures, 'file'));
    console.log(`file: ${(await filesOf(path.join(fixtures, 'file'))).join(', ')}`);
  } else if (provider === 'postgresql') {
    await dumpPostgresTable(namespace, path.join(fixtures, 'postgresql.sql'));
    await dropPostgresTable(namespace);
  } else {
    await dumpRedisPrefix(`${namespace}:`, path.join(fixtures, 'redis.json'));
    await deleteRedisPrefix(`${namespace}:`);
  }
  await rm(data, { recursive: true, force: true });
  return surfaces;
}

const tree = await previousRelease();
const fixtures = upgradeFixturesFolder;
await rm(fixtures, { recursive: true, force: true });
await mkdir(fixtures, { recursive: true });
const surfaces: Record<string, Record<string, unknown>> = {};
try {
  for (const provider of upgradeProviders) {
    surfaces[provider] = await capture(tree, provider, fixtures);
    console.log(`${provider}: captured`);
  }
} finally {
  await rm(tree, { recursive: true, force: true });
}
await writeFile(
  path.join(fixtures, 'source.json'),
  `${JSON.stringify(
    {
      commit: sourceCommit,
      subject: git('log', '-1', '--format=%s', sourceCommit),
      writtenBy: 'examples/web-host/scripts/write-upgrade-fixtures.ts',
      node: process.version,
      surfaces,
    },
    null,
    2,
  )}\n`,
);
console.log(`fixtures of ${sourceCommit} written to ${fixtures}`);
