import { copyFile, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { CoreError } from '@corekit/abstractions';
import { readModulePackageManifest, signatureFileName } from '@corekit/engine-core';
import { readFile } from 'node:fs/promises';

/** Files npm always publishes besides `files`; matched case-insensitively at the package root. */
const alwaysIncluded = /^(package\.json|readme(\..*)?|licen[cs]e(\..*)?|notice(\..*)?|changelog(\..*)?)$/i;
/** Never packed, whatever `files` says. */
const neverIncluded = new Set(['node_modules', '.git', signatureFileName]);

export interface PackResult {
  /** The staged package directory (`<out>/<name>`, `<out>/@scope/<name>` for scoped names). */
  readonly directory: string;
  readonly id: string;
  readonly version: string;
  /** Relative POSIX paths of the packed files, sorted. */
  readonly files: readonly string[];
}

/**
 * Copies a built module package into a staging directory, as npm would publish it: package.json, README,
 * LICENSE and the entries of `files` (everything but node_modules and .git when `files` is absent). The
 * target directory is replaced, so a stale file from an earlier pack never ends up signed. Symbolic links
 * are refused: a module package must be self-contained.
 */
export async function packModulePackage(source: string, outDirectory: string): Promise<PackResult> {
  const manifest = await readModulePackageManifest(source);
  const json = JSON.parse(await readFile(path.join(source, 'package.json'), 'utf8')) as { files?: unknown };
  const patterns = Array.isArray(json.files)
    ? json.files.filter((item): item is string => typeof item === 'string')
    : null;
  const target = path.resolve(outDirectory, ...manifest.id.split('/'));
  if (path.resolve(source) === target) {
    throw new CoreError(
      'PACK_TARGET_INVALID',
      'The staging directory must not be the package directory itself',
    );
  }
  const selected: string[] = [];
  for (const entry of await readdir(source)) {
    if (neverIncluded.has(entry)) continue;
    const included =
      alwaysIncluded.test(entry) ||
      (patterns ? patterns.some((pattern) => matchesTopLevel(pattern, entry)) : true);
    if (included) await collect(source, entry, selected);
  }
  const moduleRelative = path.relative(source, manifest.moduleFile).split(path.sep).join('/');
  if (!selected.includes(moduleRelative)) {
    throw new CoreError(
      'PACK_ENTRY_MISSING',
      `The module entry ${manifest.moduleEntry} would not be packed; add it to "files" in package.json`,
    );
  }
  await rm(target, { recursive: true, force: true });
  for (const file of selected) {
    const destination = path.join(target, ...file.split('/'));
    await mkdir(path.dirname(destination), { recursive: true });
    await copyFile(path.join(source, ...file.split('/')), destination);
  }
  return { directory: target, id: manifest.id, version: manifest.version, files: [...selected].sort() };
}

/** `files` entries are matched on their first path segment (`dist`, `dist/`, `./dist/**`, `*.js`). */
function matchesTopLevel(pattern: string, entry: string): boolean {
  const first = pattern.replace(/^\.\//, '').split('/')[0];
  if (!first.includes('*')) return first === entry;
  const expression = first
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${expression}$`).test(entry);
}

async function collect(root: string, relative: string, into: string[]): Promise<void> {
  const absolute = path.join(root, ...relative.split('/'));
  const stats = await lstat(absolute);
  if (stats.isSymbolicLink()) {
    throw new CoreError(
      'PACK_FILE_UNSUPPORTED',
      `${relative} is a symbolic link; bundle what it points to into the package instead`,
    );
  }
  if (stats.isFile()) return void into.push(relative);
  if (!stats.isDirectory())
    throw new CoreError('PACK_FILE_UNSUPPORTED', `${relative} is not a regular file or directory`);
  for (const child of await readdir(absolute)) {
    if (child === 'node_modules' || child === '.git') continue;
    await collect(root, `${relative}/${child}`, into);
  }
}
