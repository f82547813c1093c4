import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The workspace root (packages/create-corekit-host/src/test-support → four levels up). */
export const workspaceRoot = path.resolve(__dirname, '../../../..');

/**
 * Packs each workspace package with `pnpm pack` (workspace: ranges become versions, only `files` ship: what a
 * consumer downloads) into `destination`. Uses the existing dist/ and fails naming the build command when one is
 * missing. Answers package name → tarball path.
 */
export async function packWorkspacePackages(
  requested: readonly string[],
  destination: string,
): Promise<Record<string, string>> {
  const folders = withWorkspaceDependencies(requested);
  const missing = folders.filter(
    (folder) => !existsSync(path.join(workspaceRoot, 'packages', folder, 'dist')),
  );
  if (missing.length > 0)
    throw new Error(
      `the adoption test installs built packages, and dist/ is missing in ${missing.map((f) => `packages/${f}`).join(', ')}: ` +
        `run ${missing.map((f) => `pnpm --filter ${nameOf(f)} build`).join(' && ')} first`,
    );
  const tarballs: Record<string, string> = {};
  for (const folder of folders) {
    await run('pnpm', ['pack', '--pack-destination', destination], {
      cwd: path.join(workspaceRoot, 'packages', folder),
      timeout: 120_000,
    });
    const pkg = JSON.parse(
      readFileSync(path.join(workspaceRoot, 'packages', folder, 'package.json'), 'utf8'),
    );
    const file = readdirSync(destination).find(
      (name) => name === `${String(pkg.name).replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`,
    );
    if (!file) throw new Error(`pnpm pack wrote no tarball for ${pkg.name}`);
    tarballs[pkg.name] = path.join(destination, file);
  }
  return tarballs;
}

/**
 * The requested folders and every workspace package they depend on at run time (`dependencies` and
 * `peerDependencies` with a `workspace:` range), transitively: a consumer's install needs each of them, and the
 * registry has none of this checkout's, so a new internal dependency must not need a change here.
 */
export function withWorkspaceDependencies(requested: readonly string[]): string[] {
  const folderByName = new Map<string, string>();
  for (const folder of readdirSync(path.join(workspaceRoot, 'packages'))) {
    const file = path.join(workspaceRoot, 'packages', folder, 'package.json');
    if (existsSync(file)) folderByName.set(JSON.parse(readFileSync(file, 'utf8')).name, folder);
  }
  const found = new Set<string>();
  const visit = (folder: string) => {
    if (found.has(folder)) return;
    found.add(folder);
    const pkg = JSON.parse(
      readFileSync(path.join(workspaceRoot, 'packages', folder, 'package.json'), 'utf8'),
    );
    for (const field of ['dependencies', 'peerDependencies'])
      for (const [name, range] of Object.entries<string>(pkg[field] ?? {}))
        if (range.startsWith('workspace:') && folderByName.has(name)) visit(folderByName.get(name)!);
  };
  requested.forEach(visit);
  return [...found];
}

function nameOf(folder: string): string {
  return JSON.parse(readFileSync(path.join(workspaceRoot, 'packages', folder, 'package.json'), 'utf8')).name;
}

/**
 * Points the generated host's pinned @corekit versions at the tarballs (direct dependencies), and the ones it gets
 * through them (probe-kit) with `overrides`: the registry has no @corekit packages of this checkout.
 */
export function useTarballs(directory: string, tarballs: Record<string, string>): void {
  const file = path.join(directory, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  const direct = new Set<string>();
  for (const field of ['dependencies', 'devDependencies'])
    for (const name of Object.keys(pkg[field] ?? {}))
      if (tarballs[name]) {
        pkg[field][name] = `file:${tarballs[name]}`;
        direct.add(name);
      }
  pkg.overrides = Object.fromEntries(
    Object.entries(tarballs)
      .filter(([name]) => !direct.has(name))
      .map(([name, tarball]) => [name, `file:${tarball}`]),
  );
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
}

/**
 * The registry requests that failed in an npm run, from the debug log npm names on stderr ("A complete log of this
 * run can be found in: ..."): lines like `GET https://registry.npmjs.org/zod attempt 1 failed with ETIMEDOUT`.
 * npm reports a dependency whose manifest it could not fetch as an unresolvable peer (`Found: zod@undefined`,
 * ERESOLVE), so these lines are the real cause of such a failure.
 */
export function registryFetchFailures(stderr: string): string[] {
  const logFile = /A complete log of this run can be found in:\s*(\S+)/.exec(stderr)?.[1];
  if (!logFile || !existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .map((line) => /http fetch (\S+ \S+ attempt \d+ failed with .*)$/.exec(line)?.[1])
    .filter((line): line is string => line !== undefined);
}

/** How many times `npm` runs a command whose failure was a failed registry request (outside this project). */
export const registryAttempts = 3;

/**
 * Runs npm in `directory` with a shared cache; a failure carries npm's output. A run that failed because registry
 * requests failed (the registry is outside the project; npm's own retries are spent by then) runs again, up to
 * `registryAttempts` times, on the same cache; the error of the last one lists every failed request.
 */
export async function npm(
  directory: string,
  args: readonly string[],
  cache: string,
  timeout: number,
  /** Told before each repeated run, with the requests that failed in the run before. */
  onRetry: (failed: readonly string[]) => void = () => undefined,
) {
  const fetchFailures: string[] = [];
  for (let attempt = 1; ; attempt++) {
    try {
      return await run('npm', [...args], {
        cwd: directory,
        timeout,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, npm_config_cache: cache, npm_config_audit: 'false', npm_config_fund: 'false' },
      });
    } catch (error) {
      const failure = error as { stdout?: string; stderr?: string; message: string };
      const failed = registryFetchFailures(failure.stderr ?? '');
      fetchFailures.push(...failed.map((line) => `run ${attempt}: ${line}`));
      if (failed.length > 0 && attempt < registryAttempts) {
        onRetry(failed);
        continue;
      }
      const cause =
        fetchFailures.length > 0
          ? `\nregistry requests that failed (npm reports an unfetched dependency as "Found: <name>@undefined"):\n${fetchFailures.join('\n')}`
          : '';
      throw new Error(
        `npm ${args.join(' ')} in ${directory} failed (run ${attempt} of at most ${registryAttempts}): ${failure.message}\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}${cause}`,
      );
    }
  }
}

export { freePort } from '@corekit/testing/network-helpers';

/** A host process started with `node dist/main.js`, its output kept for failure messages. */
export interface RunningHost {
  readonly child: ChildProcess;
  readonly url: string;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export function startHost(directory: string, port: number, environment: Record<string, string>): RunningHost {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: directory,
    env: { ...process.env, NODE_ENV: 'development', ...environment, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Polls `url` until it answers `status`, for at most `seconds`; answers the last status seen. */
export async function waitForStatus(url: string, status: number, seconds: number): Promise<number> {
  const deadline = Date.now() + seconds * 1000;
  let last = 0;
  while (Date.now() < deadline) {
    last = await fetch(url)
      .then((response) => response.status)
      .catch(() => 0);
    if (last === status) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return last;
}
