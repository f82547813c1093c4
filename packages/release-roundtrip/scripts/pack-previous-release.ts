/**
 * Regenerates `previous-release/`: the packed tarballs of the previous release that the upgrade test
 * (src/stored-state-upgrade.integration.test.ts) publishes to its local registry and installs pinned. For each
 * package the upgrade writer (upgrade-writer/) installs, and every workspace package they need at run time, it
 * checks out <commit> in a git worktree under the temporary folder, installs it (`pnpm install --frozen-lockfile
 * --prefer-offline`), builds exactly those packages (`turbo run build --only`), runs `pnpm pack` in each (the
 * `workspace:` ranges replaced, only `files` shipped: the tarball `changeset publish` would publish) and writes
 * `previous-release/release.json` (the commit, each tarball with its version, size and sha512). Run from the
 * repository root:
 *
 *   pnpm exec tsx packages/release-roundtrip/scripts/pack-previous-release.ts <commit or tag of the previous release>
 *
 * Once releases are published on npm, pass the tag of the release before the current one (docs/releasing.md,
 * "The upgrade tests").
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { publishSet } from '@corekit/testing/local-registry';
import { previousReleaseFolder, upgradeWriterPackages } from '../src/previous-release';

const revision = process.argv[2];
if (!revision) throw new Error('usage: pack-previous-release.ts <commit or tag of the previous release>');

const checkout = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
const commit = git(checkout, 'rev-parse', `${revision}^{commit}`);

/** The environment of pnpm and turbo here: none of the npm_config_* a parent pnpm set. */
function toolEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm|pnpm)_config_/i.test(key) && key !== 'TURBO_HASH') environment[key] = value;
  return environment;
}

function run(command: string, args: readonly string[], cwd: string): void {
  console.log(`$ ${command} ${args.join(' ')}   (in ${cwd})`);
  execFileSync(command, args, { cwd, stdio: 'inherit', env: toolEnvironment() });
}

const parent = mkdtempSync(path.join(os.tmpdir(), 'corekit-previous-release-'));
const worktree = path.join(parent, 'tree');
run('git', ['worktree', 'add', '--detach', worktree, commit], checkout);
try {
  const names = publishSet(upgradeWriterPackages, worktree);
  console.log(`packing ${names.length} packages of ${commit}: ${names.join(', ')}`);
  run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=append-only'], worktree);
  run(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', '--only', ...names.map((name) => `--filter=${name}`)],
    worktree,
  );
  const packed = path.join(parent, 'packed');
  mkdirSync(packed);
  for (const name of names) {
    const folder = packageFolder(worktree, name);
    run('pnpm', ['pack', '--pack-destination', packed], folder);
  }
  rmSync(previousReleaseFolder, { recursive: true, force: true });
  mkdirSync(previousReleaseFolder, { recursive: true });
  const tarballs = readdirSync(packed)
    .filter((file) => file.endsWith('.tgz'))
    .sort();
  const entries = names.map((name) => {
    const version = JSON.parse(
      readFileSync(path.join(packageFolder(worktree, name), 'package.json'), 'utf8'),
    ).version;
    const file = `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;
    if (!tarballs.includes(file))
      throw new Error(`pnpm pack wrote no ${file} (it wrote ${tarballs.join(', ')})`);
    const bytes = readFileSync(path.join(packed, file));
    writeFileSync(path.join(previousReleaseFolder, file), bytes);
    return {
      name,
      version,
      file,
      bytes: bytes.length,
      sha512: createHash('sha512').update(bytes).digest('base64'),
    };
  });
  const total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  const release = {
    commit,
    subject: git(checkout, 'log', '-1', '--format=%s', commit),
    writtenBy: 'packages/release-roundtrip/scripts/pack-previous-release.ts',
    node: process.version,
    totalBytes: total,
    packages: entries,
  };
  writeFileSync(path.join(previousReleaseFolder, 'release.json'), `${JSON.stringify(release, null, 2)}\n`);
  for (const entry of entries)
    console.log(`${(entry.bytes / 1024).toFixed(0).padStart(6)} KiB  ${entry.file}`);
  console.log(
    `${(total / 1024 / 1024).toFixed(2)} MiB in ${entries.length} tarballs, ${previousReleaseFolder}`,
  );
} finally {
  run('git', ['worktree', 'remove', '--force', worktree], checkout);
  rmSync(parent, { recursive: true, force: true });
}

/** The folder of workspace package `name` in `root` (packages/* only: every published package is there). */
function packageFolder(root: string, name: string): string {
  for (const folder of readdirSync(path.join(root, 'packages'))) {
    const file = path.join(root, 'packages', folder, 'package.json');
    if (!statSync(path.dirname(file)).isDirectory()) continue;
    try {
      if (JSON.parse(readFileSync(file, 'utf8')).name === name) return path.dirname(file);
    } catch {
      // a folder without package.json
    }
  }
  throw new Error(`${name} is not under ${root}/packages`);
}
