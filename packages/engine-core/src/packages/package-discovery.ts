import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** A directory that may hold a module package. */
export interface PackageCandidate {
  /** Absolute path of the candidate package directory. */
  readonly directory: string;
  /** The configured entry of Engine:Discovery:PackageDirectories it was found under, as written. */
  readonly source: string;
}

/** One configured package directory after discovery. */
export interface PackageDirectoryState {
  readonly configured: string;
  readonly path: string;
  readonly exists: boolean;
  readonly candidates: number;
}

async function isDirectory(target: string): Promise<boolean> {
  return stat(target).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

async function exists(target: string): Promise<boolean> {
  return stat(target).then(
    () => true,
    () => false,
  );
}

async function subdirectories(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort((left, right) => Buffer.compare(Buffer.from(left), Buffer.from(right)));
}

/**
 * Lists candidate packages: every immediate, non-hidden subdirectory of each configured directory, in the
 * configured order and then by name; a `@scope` directory without package.json is searched one level
 * deeper. Relative directories resolve against `contentRoot`. A missing directory is reported, not fatal.
 */
export async function discoverPackageCandidates(
  configured: readonly string[],
  contentRoot: string,
): Promise<{ candidates: PackageCandidate[]; directories: PackageDirectoryState[] }> {
  const candidates: PackageCandidate[] = [];
  const directories: PackageDirectoryState[] = [];
  for (const entry of configured) {
    const root = path.resolve(contentRoot, entry);
    if (!(await isDirectory(root))) {
      directories.push({ configured: entry, path: root, exists: false, candidates: 0 });
      continue;
    }
    const before = candidates.length;
    for (const name of await subdirectories(root)) {
      const directory = path.join(root, name);
      if (name.startsWith('@') && !(await exists(path.join(directory, 'package.json')))) {
        for (const scoped of await subdirectories(directory))
          candidates.push({ directory: path.join(directory, scoped), source: entry });
      } else {
        candidates.push({ directory, source: entry });
      }
    }
    directories.push({ configured: entry, path: root, exists: true, candidates: candidates.length - before });
  }
  return { candidates, directories };
}
