import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CoreError } from '@corekit/abstractions';
import { parseVersion } from './version-range';

/** What the engine reads from a module package's package.json. Nothing of the package runs to read it. */
export interface ModulePackageManifest {
  /** The npm name (`@acme/operations-status`): the package id policies match. */
  readonly id: string;
  readonly version: string;
  /** The module entry as written (`./dist/module.js`). */
  readonly moduleEntry: string;
  /** Absolute path of the module entry, inside the package directory. */
  readonly moduleFile: string;
}

const npmNamePattern = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/**
 * Reads `package.json` of a candidate package. The Core module entry is `corekit.module`, a path relative
 * to the package that must stay inside it. Throws PACKAGE_MANIFEST_INVALID saying what is wrong.
 */
export async function readModulePackageManifest(directory: string): Promise<ModulePackageManifest> {
  const file = path.join(directory, 'package.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new CoreError(
        'PACKAGE_MANIFEST_INVALID',
        'package.json not found: a module package is an npm package directory',
      );
    }
    throw error;
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CoreError('PACKAGE_MANIFEST_INVALID', 'package.json is not valid JSON');
  }
  const problems: string[] = [];
  const id = typeof json.name === 'string' ? json.name : '';
  const version = typeof json.version === 'string' ? json.version : '';
  if (!npmNamePattern.test(id))
    problems.push(`"name" must be an npm package name, got ${JSON.stringify(json.name ?? null)}`);
  if (!parseVersion(version))
    problems.push(`"version" must be a semantic version, got ${JSON.stringify(json.version ?? null)}`);
  const corekit = json.corekit as { module?: unknown } | undefined;
  const moduleEntry = typeof corekit?.module === 'string' ? corekit.module : '';
  let moduleFile = '';
  if (!moduleEntry) {
    problems.push('"corekit.module" must name the module entry file, for example "./dist/module.js"');
  } else {
    moduleFile = path.resolve(directory, moduleEntry);
    const relative = path.relative(directory, moduleFile);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
      problems.push(`"corekit.module" must point inside the package, got ${JSON.stringify(moduleEntry)}`);
    } else if (!/\.(m?js|cjs)$/.test(moduleFile)) {
      problems.push(
        `"corekit.module" must be a built JavaScript file (.js, .mjs or .cjs), got ${JSON.stringify(moduleEntry)}`,
      );
    } else if (
      !(await stat(moduleFile).then(
        (stats) => stats.isFile(),
        () => false,
      ))
    ) {
      problems.push(`"corekit.module" names ${moduleEntry}, which does not exist in the package`);
    }
  }
  if (problems.length > 0) {
    throw new CoreError(
      'PACKAGE_MANIFEST_INVALID',
      `package.json is not a Core module package manifest: ${problems.join('; ')}`,
      {
        id: id || null,
        version: version || null,
      },
    );
  }
  return { id, version, moduleEntry, moduleFile };
}
