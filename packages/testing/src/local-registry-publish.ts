// Publishing the workspace's packages to a local registry (local-registry.ts) from a copy of the tree, with the
// release tooling a real release uses: `changeset version`, then `changeset publish` (pnpm publish: workspace:
// ranges replaced, only `files` shipped). The real tree is never changed.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalRegistry } from './local-registry';
import { runCommand } from './run-command';

/** This checkout: the nearest folder holding pnpm-workspace.yaml, from the working directory up. */
export const checkout = workspaceRootFrom(process.cwd());

function workspaceRootFrom(start: string): string {
  for (let folder = path.resolve(start); ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'pnpm-workspace.yaml'))) return folder;
    if (path.dirname(folder) === folder)
      throw new Error(`no pnpm-workspace.yaml in ${start} or above: run from inside the Core checkout`);
  }
}

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  files?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  publishConfig?: Record<string, unknown>;
  [key: string]: unknown;
}

interface WorkspaceEntry {
  /** Relative to the workspace root, forward slashes (`packages/probe-redis`). */
  readonly directory: string;
  readonly manifest: Manifest;
}

/** Every package of the workspace at `root` (the `dir/*` globs of pnpm-workspace.yaml), by name. */
function workspace(root: string): Map<string, WorkspaceEntry> {
  const text = readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8');
  const parents = [...text.matchAll(/^\s*-\s*'?([\w.-]+)\/\*'?\s*$/gm)].map((match) => match[1]!);
  const found = new Map<string, WorkspaceEntry>();
  for (const parent of parents) {
    if (!existsSync(path.join(root, parent))) continue;
    for (const folder of readdirSync(path.join(root, parent)).sort()) {
      const file = path.join(root, parent, folder, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      found.set(manifest.name, { directory: `${parent}/${folder}`, manifest });
    }
  }
  return found;
}

/**
 * The named packages and every workspace package they need at run time (`dependencies` and `peerDependencies`
 * naming a workspace package), transitively, sorted. Throws when one of them is private: it cannot be published.
 */
export function publishSet(packageNames: readonly string[], root: string = checkout): string[] {
  const packages = workspace(root);
  const found = new Set<string>();
  const visit = (name: string, neededBy: string) => {
    if (found.has(name)) return;
    const entry = packages.get(name);
    if (!entry) throw new Error(`${name} (${neededBy}) is not a package of the workspace at ${root}`);
    if (entry.manifest.private) throw new Error(`${name} (${neededBy}) is private: it cannot be published`);
    found.add(name);
    for (const field of ['dependencies', 'peerDependencies'] as const)
      for (const dependency of Object.keys(entry.manifest[field] ?? {}))
        if (packages.has(dependency)) visit(dependency, `a dependency of ${name}`);
  };
  for (const name of packageNames) visit(name, 'named');
  return [...found].sort();
}

export interface ReleaseCopyOptions {
  /** The workspace to copy. Default: this checkout. */
  readonly root?: string;
  /** The folder to copy into (created). Default: a new temporary folder. */
  readonly directory?: string;
  /** The packages the copy will publish (from publishSet): their `files` are copied too. */
  readonly packages: readonly string[];
}

/** A copy of the tree that `changeset version` and `changeset publish` may change. */
export interface ReleaseCopy {
  readonly directory: string;
  /** The packages it publishes. */
  readonly packages: readonly string[];
  /** Each workspace package's version in the copy now. */
  versions(): Record<string, string>;
  remove(): void;
}

/**
 * Copies what a release reads: the root package.json, pnpm-workspace.yaml, `.changeset/`, every workspace
 * package.json; for the packages to publish, also what their tarball holds (`files`: dist, README.md...) and a
 * node_modules link to each workspace package they name (pnpm publish reads the version a `workspace:^` range
 * stands for there). No sources, no git; the built `dist/` must exist.
 */
export function prepareReleaseCopy(options: ReleaseCopyOptions): ReleaseCopy {
  const root = options.root ?? checkout;
  const directory = options.directory ?? mkdtempSync(path.join(os.tmpdir(), 'corekit-release-copy-'));
  mkdirSync(directory, { recursive: true });
  const packages = workspace(root);
  for (const file of ['package.json', 'pnpm-workspace.yaml'])
    cpSync(path.join(root, file), path.join(directory, file));
  cpSync(path.join(root, '.changeset'), path.join(directory, '.changeset'), { recursive: true });
  for (const { directory: folder } of packages.values()) {
    mkdirSync(path.join(directory, folder), { recursive: true });
    cpSync(path.join(root, folder, 'package.json'), path.join(directory, folder, 'package.json'));
  }
  for (const name of options.packages) {
    const entry = packages.get(name);
    if (!entry) throw new Error(`${name} is not a package of the workspace at ${root}`);
    copyTarballContents(path.join(root, entry.directory), path.join(directory, entry.directory), entry);
    linkWorkspaceDependencies(directory, entry, packages);
  }
  return {
    directory,
    packages: [...options.packages],
    versions: () =>
      Object.fromEntries([...workspace(directory)].map(([name, entry]) => [name, entry.manifest.version])),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}

function copyTarballContents(from: string, to: string, entry: WorkspaceEntry): void {
  if (!existsSync(path.join(from, 'dist')))
    throw new Error(
      `${entry.manifest.name} has no dist/ in ${from}: build it first (publishWorkspacePackages does)`,
    );
  const always = readdirSync(from).filter((file) => /^(readme|license|licence|changelog)(\.|$)/i.test(file));
  for (const file of new Set([...(entry.manifest.files ?? []), ...always])) {
    if (existsSync(path.join(from, file)))
      cpSync(path.join(from, file), path.join(to, file), { recursive: true });
  }
}

function linkWorkspaceDependencies(
  copy: string,
  entry: WorkspaceEntry,
  packages: ReadonlyMap<string, WorkspaceEntry>,
): void {
  const fields = ['dependencies', 'peerDependencies', 'devDependencies'] as const;
  for (const name of new Set(fields.flatMap((field) => Object.keys(entry.manifest[field] ?? {})))) {
    const target = packages.get(name);
    if (!target) continue;
    const link = path.join(copy, entry.directory, 'node_modules', name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.relative(path.dirname(link), path.join(copy, target.directory)), link, 'dir');
  }
}

export interface PublishOptions {
  /** The workspace to publish from. Default: this checkout. */
  readonly root?: string;
  /**
   * Which versions the packages get: `'changeset'` (default) runs `changeset version` on the copy (the queued
   * changesets, as a release would); `'as-is'` publishes the versions of the tree; `{ version }` sets that
   * version on every workspace package of the copy first (internal ranges follow it).
   */
  readonly versioning?: 'changeset' | 'as-is' | { readonly version: string };
  /** Keep the copy (its folder is in the answer); by default it is removed once published. */
  readonly keepCopy?: boolean;
  /**
   * Build the packages with turbo first (default true; inside a turbo task only their dist/ is checked). `false`
   * publishes the dist/ folders as they are.
   */
  readonly build?: boolean;
}

export interface PublishedPackages {
  /** Every published package → the version now on the registry. */
  readonly versions: Readonly<Record<string, string>>;
  /** The copy published from, when `keepCopy` was set. */
  readonly copyDirectory?: string;
  /** Milliseconds spent: building (turbo), versioning and publishing. */
  readonly durations: { readonly buildMs: number; readonly versionMs: number; readonly publishMs: number };
}

/**
 * Publishes `packageNames` and every workspace package they need at run time to `registry`: builds them with
 * turbo (filtered to these packages; what is already built comes from turbo's cache), copies the tree, sets the
 * versions (`versioning`), makes every other package of the copy private and runs `changeset publish
 * --no-git-tag` there against the registry only.
 */
export async function publishWorkspacePackages(
  registry: LocalRegistry,
  packageNames: readonly string[],
  options: PublishOptions = {},
): Promise<PublishedPackages> {
  const root = options.root ?? checkout;
  assertLoopback(registry.url);
  const names = publishSet(packageNames, root);
  let started = Date.now();
  if (options.build !== false) await buildPackages(root, names);
  const buildMs = Date.now() - started;
  const copy = prepareReleaseCopy({ root, packages: names });
  try {
    started = Date.now();
    await setVersions(copy.directory, options.versioning ?? 'changeset');
    const versionMs = Date.now() - started;
    started = Date.now();
    restrictToPublished(copy.directory, names, registry.url);
    writeFileSync(path.join(copy.directory, '.npmrc'), publishNpmrc(registry));
    await runCommand(path.join(checkout, 'node_modules/.bin/changeset'), ['publish', '--no-git-tag'], {
      cwd: copy.directory,
      env: publishEnvironment(registry.url),
    });
    const versions = copy.versions();
    await expectPublished(registry, names, versions);
    return {
      versions: Object.fromEntries(names.map((name) => [name, versions[name]!])),
      ...(options.keepCopy ? { copyDirectory: copy.directory } : {}),
      durations: { buildMs, versionMs, publishMs: Date.now() - started },
    };
  } finally {
    if (!options.keepCopy) copy.remove();
  }
}

/** Publishing goes to loopback only: a mistake here must never reach a public registry. */
function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]')
    throw new Error(`publishWorkspacePackages publishes to a local registry only, not ${url}`);
}

/**
 * Builds exactly the packages to publish with turbo (`--only`: the set is closed under run-time dependencies, so
 * nothing else is needed, not even what they build their tests with), in dependency order; a package whose inputs
 * did not change comes from turbo's cache. Inside a turbo task (`pnpm test`) the calling package's turbo.json has
 * built them already (`dependsOn: ["^build"]`): running turbo again from inside turbo would race the outer run, so
 * the dist folders are only checked.
 */
async function buildPackages(root: string, names: readonly string[]): Promise<void> {
  const packages = workspace(root);
  if (process.env.TURBO_HASH) {
    const missing = names.filter(
      (name) => !existsSync(path.join(root, packages.get(name)!.directory, 'dist')),
    );
    if (missing.length > 0)
      throw new Error(
        `dist/ is missing for ${missing.join(', ')}: the test task's turbo.json must depend on their build ` +
          `(devDependencies on them and "dependsOn": ["^build"])`,
      );
    return;
  }
  const filters = names.map((name) => `--filter=${name}`);
  await runCommand('pnpm', ['exec', 'turbo', 'run', 'build', '--only', ...filters], {
    cwd: root,
    timeoutMs: 30 * 60_000,
  });
}

async function setVersions(
  copy: string,
  versioning: NonNullable<PublishOptions['versioning']>,
): Promise<void> {
  if (versioning === 'as-is') return;
  if (versioning === 'changeset') {
    await runCommand(path.join(checkout, 'node_modules/.bin/changeset'), ['version'], {
      cwd: copy,
      env: { ...process.env, CI: 'true' },
    });
    return;
  }
  for (const entry of workspace(copy).values())
    editManifest(copy, entry, (manifest) => ({ ...manifest, version: versioning.version }));
}

/** Every other package of the copy becomes private (changeset publish skips it); the set publishes to `url`. */
function restrictToPublished(copy: string, names: readonly string[], url: string): void {
  for (const [name, entry] of workspace(copy)) {
    editManifest(copy, entry, (manifest) =>
      names.includes(name)
        ? { ...manifest, publishConfig: { ...manifest.publishConfig, registry: url } }
        : { ...manifest, private: true },
    );
  }
}

function editManifest(copy: string, entry: WorkspaceEntry, change: (manifest: Manifest) => Manifest): void {
  const file = path.join(copy, entry.directory, 'package.json');
  writeFileSync(file, `${JSON.stringify(change(entry.manifest), null, 2)}\n`);
}

function publishNpmrc(registry: LocalRegistry): string {
  return `registry=${registry.url}\n${registry.npmrc({ publish: true })}`;
}

/**
 * The environment of `changeset publish`: the registry is the local one however this process was started
 * (pnpm sets npm_config_registry for the scripts it runs), and npm's update check and audit are off.
 */
function publishEnvironment(url: string): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^npm_config_/i.test(key) && !/^pnpm_config_/i.test(key)) environment[key] = value;
  return {
    ...environment,
    CI: 'true',
    npm_config_registry: url,
    'npm_config_@corekit:registry': url,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
}

async function expectPublished(
  registry: LocalRegistry,
  names: readonly string[],
  versions: Readonly<Record<string, string>>,
): Promise<void> {
  const missing: string[] = [];
  for (const name of names) {
    if (!(await registry.versions(name)).includes(versions[name]!)) missing.push(`${name}@${versions[name]}`);
  }
  if (missing.length > 0)
    throw new Error(`changeset publish left these off the local registry: ${missing.join(', ')}`);
}
