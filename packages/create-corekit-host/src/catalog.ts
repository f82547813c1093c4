import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root';

/** A probe the generator offers (data/probes.json). */
export interface ProbeChoice {
  readonly id: string;
  readonly folder: string;
  readonly register: string;
  /** Section under Engine:Observability:DependencyHealth. */
  readonly section: string;
  /** The first dependency entry written to engine.json. */
  readonly sample: Readonly<Record<string, unknown>>;
}

/** A pack the generator offers (data/packs.json) when its folder exists in the workspace. */
export interface PackChoice {
  readonly id: string;
  readonly folder: string;
  readonly register: string;
  readonly needs: readonly string[];
}

/**
 * What can be generated, and the versions to pin: read from the workspace's packages/<folder>/package.json at
 * generation time, so a generated host pins what this checkout would publish. Outside a workspace (the package
 * installed from a registry) they come from dist/corekit-versions.json, written by this package's build; without
 * either, generation fails rather than guess a version.
 */
export interface Catalog {
  /** Package name to exact version, for every workspace package (`@corekit/web-host` → `0.1.0`). */
  readonly versions: Readonly<Record<string, string>>;
  readonly probes: readonly ProbeChoice[];
  readonly packs: readonly PackChoice[];
  /** The workspace root the versions were read from, or null when they came from package.json. */
  readonly workspace: string | null;
}

const readJson = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/** The closest folder at or above `start` holding pnpm-workspace.yaml and packages/. */
export function findWorkspace(start: string): string | null {
  let directory = path.resolve(start);
  for (;;) {
    if (
      existsSync(path.join(directory, 'pnpm-workspace.yaml')) &&
      existsSync(path.join(directory, 'packages'))
    )
      return directory;
    const parent = path.dirname(directory);
    if (parent === directory) return null;
    directory = parent;
  }
}

function workspaceVersions(workspace: string): Record<string, string> {
  const versions: Record<string, string> = {};
  const packages = path.join(workspace, 'packages');
  for (const folder of readdirSync(packages)) {
    const file = path.join(packages, folder, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = readJson(file);
    if (pkg.private === true) continue;
    versions[String(pkg.name)] = String(pkg.version);
  }
  return versions;
}

/** Loads the catalog from `workspace` (default: the workspace this package sits in, if any). */
export function loadCatalog(workspace: string | null = findWorkspace(packageRoot())): Catalog {
  const root = packageRoot();
  const probes = (readJson(path.join(root, 'data/probes.json')).probes ?? []) as ProbeChoice[];
  const packs = (readJson(path.join(root, 'data/packs.json')).packs ?? []) as PackChoice[];
  let versions: Record<string, string>;
  if (workspace) versions = workspaceVersions(workspace);
  else {
    const released = path.join(root, 'dist/corekit-versions.json');
    if (!existsSync(released))
      throw new Error(
        'no workspace found and no dist/corekit-versions.json: pass --workspace <corekit checkout>',
      );
    versions = readJson(released) as Record<string, string>;
  }
  const published = (folder: string) => `@corekit/${folder}` in versions;
  return {
    versions,
    workspace,
    probes: probes.filter((probe) => published(probe.folder)),
    packs: packs.filter((pack) => published(pack.folder) && pack.needs.every((need) => published(need))),
  };
}
