// A local npm registry (Verdaccio) for tests that publish the workspace's packages and install them the way a
// consumer does: by version, from a registry. See the "Local registry" section of the testing README.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export {
  publishWorkspacePackages,
  prepareReleaseCopy,
  publishSet,
  type PublishOptions,
  type PublishedPackages,
  type ReleaseCopy,
  type ReleaseCopyOptions,
} from './local-registry-publish';
import { checkout } from './local-registry-publish';

/** A running local registry. */
export interface LocalRegistry {
  /**
   * `http://127.0.0.1:<port>/r-<random>/`: a path of its own for each start, so npm's cache (keyed by URL) never
   * answers for it with what an earlier registry on the same port held.
   */
  readonly url: string;
  /** The folder Verdaccio stores packages in (its `storage/` subfolder) and its configuration. */
  readonly storageDir: string;
  /**
   * `.npmrc` lines that send the `@corekit` scope (or `scope`) to this registry, everything else to the
   * registry npm and pnpm are configured with. With `publish: true`, also the (any) token npm and pnpm insist
   * on before they publish; the registry lets every caller publish.
   */
  npmrc(options?: { readonly scope?: string; readonly publish?: boolean }): string;
  /** The versions of `name` this registry holds (empty when it holds none). */
  versions(name: string): Promise<string[]>;
  /** Stops the server; removes the storage folder when startLocalRegistry made it. */
  close(): Promise<void>;
}

export interface LocalRegistryOptions {
  /** Where Verdaccio keeps what is published. Default: a new temporary folder, removed on close(). */
  readonly storageDir?: string;
  /** How long to wait for the server to listen. Default 60 s. */
  readonly startTimeoutMs?: number;
}

const serverScript = path.join(checkout, 'packages/testing/src/local-registry-server.mjs');

/**
 * Starts Verdaccio in a child process on 127.0.0.1 and a port from the OS: anonymous read and publish, no
 * uplinks (it never forwards a request to another registry: a package it does not hold answers 404), storage in
 * `storageDir`. Close it with `close()`.
 */
export async function startLocalRegistry(options: LocalRegistryOptions = {}): Promise<LocalRegistry> {
  const ownsStorage = options.storageDir === undefined;
  const storageDir = options.storageDir ?? mkdtempSync(path.join(os.tmpdir(), 'corekit-registry-'));
  const prefix = `/r-${randomBytes(6).toString('hex')}/`;
  const child = spawn(process.execPath, [serverScript, storageDir, prefix], {
    cwd: path.dirname(serverScript),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let port: number;
  try {
    port = await listeningPort(child, options.startTimeoutMs ?? 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    if (ownsStorage) rmSync(storageDir, { recursive: true, force: true });
    throw error;
  }
  const url = `http://127.0.0.1:${port}${prefix}`;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    url,
    storageDir,
    npmrc: (npmrcOptions = {}) => registryNpmrc(url, npmrcOptions),
    versions: (name) => registryVersions(url, name),
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      if (ownsStorage) rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

/** Resolves with the port the server script prints (`listening <port>`); rejects with its output otherwise. */
function listeningPort(child: ChildProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const fail = (reason: string) => {
      clearTimeout(timer);
      reject(new Error(`the local registry (Verdaccio) did not start: ${reason}\n${output}`));
    };
    const timer = setTimeout(() => fail(`not listening after ${timeoutMs} ms`), timeoutMs);
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /^listening (\d+)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => fail(`exited with code ${code}`));
  });
}

function registryNpmrc(
  url: string,
  options: { readonly scope?: string; readonly publish?: boolean },
): string {
  const scope = options.scope ?? '@corekit';
  const lines = [`${scope}:registry=${url}`];
  // npm and pnpm refuse to publish without credentials for the registry; Verdaccio lets every caller publish.
  if (options.publish) lines.push(`${url.replace(/^https?:/, '')}:_authToken=corekit-local-registry`);
  return `${lines.join('\n')}\n`;
}

async function registryVersions(url: string, name: string): Promise<string[]> {
  const response = await fetch(`${url}${name.replace('/', '%2f')}`);
  if (response.status === 404) return [];
  if (!response.ok) throw new Error(`${url} answered ${response.status} for ${name}`);
  const document = (await response.json()) as { versions?: Record<string, unknown> };
  return Object.keys(document.versions ?? {});
}
