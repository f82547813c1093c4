import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A temporary directory removed by `remove()`. */
export function temporaryDirectory(prefix = 'corekit-packages-'): { readonly path: string; remove(): void } {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  return { path: directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

export interface ModulePackageSpec {
  /** npm name, also the directory name (a scoped name makes a `@scope/name` directory). */
  readonly name: string;
  readonly version?: string;
  readonly moduleId?: string;
  /**
   * Where the module file writes `imported` the moment it is imported: the observable side effect that
   * proves whether a package's code ran.
   */
  readonly markerDirectory: string;
  /** Source text replacing the default module body (after the marker line). */
  readonly moduleBody?: string;
  /** Other files to write, relative path to content. */
  readonly files?: Readonly<Record<string, string>>;
}

/** The marker file a fixture package writes when imported. */
export function markerOf(spec: Pick<ModulePackageSpec, 'name' | 'markerDirectory'>): string {
  return path.join(spec.markerDirectory, `${spec.name.replace(/[@/]/g, '_')}.imported`);
}

export function wasImported(spec: Pick<ModulePackageSpec, 'name' | 'markerDirectory'>): boolean {
  return existsSync(markerOf(spec));
}

/**
 * Writes a built module package (ES module JavaScript, as a bundler would leave it) under `parent`, and
 * returns its directory. The module declares the route GET /api/<module id>/status.
 */
export function writeModulePackage(parent: string, spec: ModulePackageSpec): string {
  const directory = path.join(parent, ...spec.name.split('/'));
  mkdirSync(path.join(directory, 'dist'), { recursive: true });
  const moduleId = spec.moduleId ?? spec.name.replace(/^@[^/]+\//, '');
  writeFileSync(
    path.join(directory, 'package.json'),
    `${JSON.stringify({ name: spec.name, version: spec.version ?? '1.0.0', type: 'module', corekit: { module: './dist/module.js' } }, null, 2)}\n`,
  );
  const body =
    spec.moduleBody ??
    `const state = { started: false };
export default {
  id: ${JSON.stringify(moduleId)},
  version: ${JSON.stringify(spec.version ?? '1.0.0')},
  capabilities: ['status.read'],
  start() { state.started = true; },
  stop() { state.started = false; },
  // A duck-typed result schema: the fixture lives in a temporary folder where zod cannot be imported.
  operations: [{ id: '${moduleId}.status', method: 'GET', path: '/api/${moduleId}/status', summary: 'status', result: { safeParse: (value) => ({ success: true, data: value }) }, handler: () => ({ module: ${JSON.stringify(moduleId)}, started: state.started }) }],
};
`;
  writeFileSync(
    path.join(directory, 'dist', 'module.js'),
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(markerOf(spec))}, 'imported');\n${body}`,
  );
  for (const [file, content] of Object.entries(spec.files ?? {})) {
    mkdirSync(path.dirname(path.join(directory, file)), { recursive: true });
    writeFileSync(path.join(directory, file), content);
  }
  return directory;
}
