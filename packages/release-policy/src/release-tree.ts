import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { readWorkspacePackages } from './workspace-packages';

/**
 * Copies what `changeset version` reads and writes into `target`: the root package.json,
 * pnpm-workspace.yaml, `.changeset/` and every workspace package.json. No sources, no node_modules, no git:
 * the copy is a few hundred kilobytes and the run changes nothing in the real tree.
 */
export function copyReleaseTree(root: string, target: string): void {
  for (const file of ['package.json', 'pnpm-workspace.yaml']) {
    cpSync(path.join(root, file), path.join(target, file));
  }
  cpSync(path.join(root, '.changeset'), path.join(target, '.changeset'), { recursive: true });
  for (const workspacePackage of readWorkspacePackages(root)) {
    mkdirSync(path.join(target, workspacePackage.directory), { recursive: true });
    cpSync(
      path.join(root, workspacePackage.directory, 'package.json'),
      path.join(target, workspacePackage.directory, 'package.json'),
    );
  }
}

/** Removes a copy made by copyReleaseTree. */
export function removeReleaseTree(target: string): void {
  rmSync(target, { recursive: true, force: true });
}
