// A fresh consumer project outside the workspace: pinned exact versions of the published packages from the local
// registry (the @corekit scope only; everything else from the registry npm and pnpm are configured with, their
// caches first), installed with npm or pnpm, compiled by tsc and started as a node process.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalRegistry } from '@corekit/testing/local-registry';
import { runCommand } from '@corekit/testing/run-command';

/** The workspace root (packages/release-roundtrip/src → three levels up). */
export const workspaceRoot = path.resolve(__dirname, '../../..');

/** What the consumer installs by name (pinned exact); their @corekit dependencies and peers come with them. */
export const consumerPackages = [
  '@corekit/engine-core',
  '@corekit/web-host',
  '@corekit/probe-postgres',
  '@corekit/probe-redis',
  '@corekit/probe-http',
  '@corekit/eventing',
  '@corekit/outbox-postgres',
  '@corekit/tenancy',
  '@corekit/tenant-governance',
  '@corekit/sender-sendgrid',
  '@corekit/callback-sendgrid',
] as const;

export type PackageManager = 'npm' | 'pnpm';

/** The consumer's TypeScript settings: strict, NodeNext (ES modules, and CommonJS for .cts files). */
const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    // The published declarations are checked as a strict consumer's compiler reads them: callback-kit's main entry
    // no longer names fast-check (the fuzz harness is @corekit/callback-kit/fuzz), and web-host and
    // outbox-postgres depend on the @types packages their declarations use (README, "Problems it found").
    skipLibCheck: false,
    types: ['node'],
    outDir: 'dist',
    rootDir: 'src',
  },
  include: ['src'],
};

/** Writes package.json (exact versions), .npmrc (the @corekit scope from the local registry), tsconfig and src/. */
export function writeConsumerProject(
  directory: string,
  registry: LocalRegistry,
  versions: Readonly<Record<string, string>>,
): void {
  mkdirSync(path.join(directory, 'src'), { recursive: true });
  const dependencies = Object.fromEntries(
    consumerPackages.map((name) => [name, exactVersion(versions, name)]),
  );
  const manifest = {
    name: 'corekit-roundtrip-consumer',
    version: '1.0.0',
    private: true,
    type: 'module',
    dependencies,
    devDependencies: { '@types/node': '^20.19.0' },
  };
  writeFileSync(path.join(directory, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(directory, '.npmrc'), registry.npmrc());
  writeFileSync(path.join(directory, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  const programs = path.join(workspaceRoot, 'packages/release-roundtrip/consumer');
  copyFileSync(path.join(programs, 'main.ts'), path.join(directory, 'src/main.ts'));
  copyFileSync(path.join(programs, 'require-check.cts'), path.join(directory, 'src/require-check.cts'));
}

function exactVersion(versions: Readonly<Record<string, string>>, name: string): string {
  const version = versions[name];
  if (!version) throw new Error(`${name} was not published`);
  return version;
}

/** The environment of npm and pnpm: this one without the npm_config_* a parent pnpm set, audit and fund off. */
function packageManagerEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm|pnpm)_config_/i.test(key)) environment[key] = value;
  return {
    ...environment,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

export interface InstallFolders {
  /** npm's cache: npm's own (npm_config_cache, else ~/.npm), as a consumer's install uses it. */
  readonly npmCache: string;
  /** pnpm's store and metadata cache: folders of this run. */
  readonly pnpmStore: string;
  readonly pnpmCache: string;
}

/** npm's own cache, read before the environment of the installs drops npm_config_*. */
export function npmCache(): string {
  return process.env.npm_config_cache || path.join(os.homedir(), '.npm');
}

/** Installs the project with `manager`, preferring what its cache holds. */
export async function install(
  directory: string,
  manager: PackageManager,
  folders: InstallFolders,
): Promise<void> {
  if (manager === 'npm') {
    await runCommand('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: directory,
      env: packageManagerEnvironment({ npm_config_cache: folders.npmCache }),
    });
    return;
  }
  await runCommand(
    'pnpm',
    [
      'install',
      // No lockfile yet: under CI=true pnpm would otherwise insist on a frozen one.
      '--no-frozen-lockfile',
      '--prefer-offline',
      `--store-dir=${folders.pnpmStore}`,
      `--cache-dir=${folders.pnpmCache}`,
      '--reporter=append-only',
    ],
    { cwd: directory, env: packageManagerEnvironment({}) },
  );
}

/** tsc of this workspace (the version the packages are built with) on the consumer's tsconfig. */
export async function compile(directory: string): Promise<void> {
  await runCommand(
    process.execPath,
    [path.join(workspaceRoot, 'node_modules/typescript/bin/tsc'), '-p', '.'],
    {
      cwd: directory,
    },
  );
}

/** The consumer program running as `node dist/main.js`. */
export interface RunningConsumer {
  readonly child: ChildProcess;
  /** Where it listens, once it printed "consumer listening on <url>". */
  readonly listening: Promise<string>;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `node dist/main.js` in `directory`; `listening` resolves with the URL the program prints after `banner`
 * (default "consumer listening on").
 */
export function startConsumer(
  directory: string,
  environment: Record<string, string>,
  banner = 'consumer listening on',
): RunningConsumer {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: directory,
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = new RegExp(`${banner} (\\S+)`).exec(output);
      if (match) resolve(match[1]!.replace(/\/$/, ''));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`the consumer exited with code ${code}:\n${output}`)));
  });
  listening.catch(() => undefined);
  return {
    child,
    listening,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
