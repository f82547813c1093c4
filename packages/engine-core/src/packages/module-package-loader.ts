import { pathToFileURL } from 'node:url';
import { CoreError } from '@corekit/abstractions';
import type { ModuleDefinition } from '@corekit/abstractions';
import { operationShapeProblems } from './module-operations';

/** Imports a module file; the default imports it as ES module (a CommonJS file works too). */
export type ModuleImporter = (file: string) => Promise<unknown>;

/**
 * Native dynamic import. On POSIX an absolute path is a valid specifier, which also lets test runners that
 * compile `import()` to `require()` load the file; on Windows a file URL is required.
 */
export const importModuleFile: ModuleImporter = (file) =>
  import(/* webpackIgnore: true */ process.platform === 'win32' ? pathToFileURL(file).href : file);

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/**
 * Takes the module definition out of an imported module namespace: the `default` export, or a named
 * `module` export. Throws PACKAGE_MODULE_INVALID listing every problem.
 */
export function moduleDefinitionFrom(namespace: unknown, entry: string): ModuleDefinition {
  const exports = (namespace ?? {}) as Record<string, unknown>;
  let candidate = exports.default ?? exports.module;
  // A CommonJS module imported as ES module puts module.exports under default.
  if (candidate && typeof candidate === 'object' && !('id' in candidate) && 'module' in candidate) {
    candidate = (candidate as Record<string, unknown>).module;
  }
  if (!candidate || typeof candidate !== 'object') {
    throw new CoreError(
      'PACKAGE_MODULE_INVALID',
      `${entry} exports no module definition: export default { id, version, ... } or export const module = { ... }`,
    );
  }
  const module = candidate as ModuleDefinition;
  const problems: string[] = [];
  if (typeof module.id !== 'string' || !idPattern.test(module.id))
    problems.push(
      `"id" must be a valid module id (letters, digits, . _ : -), got ${JSON.stringify(module.id ?? null)}`,
    );
  if (typeof module.version !== 'string' || module.version.length === 0)
    problems.push('"version" must be a non-empty string');
  for (const hook of ['initialize', 'start', 'stop'] as const) {
    if (module[hook] !== undefined && typeof module[hook] !== 'function')
      problems.push(`"${hook}" must be a function when present`);
  }
  if (
    module.capabilities !== undefined &&
    !(Array.isArray(module.capabilities) && module.capabilities.every((item) => typeof item === 'string'))
  ) {
    problems.push('"capabilities" must be an array of strings');
  }
  problems.push(...operationShapeProblems(module));
  if (problems.length > 0) {
    throw new CoreError(
      'PACKAGE_MODULE_INVALID',
      `${entry} does not export a valid module definition: ${problems.join('; ')}`,
    );
  }
  return module;
}
