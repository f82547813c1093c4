import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One workspace package as its package.json declares it. */
export interface WorkspacePackage {
  /** Folder relative to the workspace root, with forward slashes (`packages/probe-redis`). */
  readonly directory: string;
  readonly name: string;
  readonly version: string;
  readonly private: boolean;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly peerDependencies: Readonly<Record<string, string>>;
  /** The `files` list (what the published tarball holds besides package.json), empty when absent. */
  readonly files: readonly string[];
}

/** The `dir/*` globs of pnpm-workspace.yaml (the only form this repository uses). */
export function workspaceFolders(root: string): string[] {
  const text = readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8');
  return [...text.matchAll(/^\s*-\s*'?([\w.-]+)\/\*'?\s*$/gm)].map((match) => match[1]!);
}

/** Every package of the workspace (folders under the globs that hold a package.json), sorted by folder. */
export function readWorkspacePackages(root: string): WorkspacePackage[] {
  return workspaceFolders(root)
    .flatMap((parent) => {
      const parentDirectory = path.join(root, parent);
      if (!existsSync(parentDirectory)) return [];
      return readdirSync(parentDirectory)
        .filter((name) => existsSync(path.join(parentDirectory, name, 'package.json')))
        .map((name) => `${parent}/${name}`);
    })
    .sort()
    .map((directory) => {
      const manifest = JSON.parse(readFileSync(path.join(root, directory, 'package.json'), 'utf8'));
      return {
        directory,
        name: String(manifest.name),
        version: String(manifest.version),
        private: manifest.private === true,
        dependencies: manifest.dependencies ?? {},
        peerDependencies: manifest.peerDependencies ?? {},
        files: manifest.files ?? [],
      };
    });
}
