// The type exports of a built package as TypeScript consumers resolve them (ESM and CommonJS, node16 and bundler
// resolution), checked by @arethetypeswrong/core, the library of the `attw` command, on the files of dist/ and
// package.json read from disk (no tarball to pack).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkPackage, Package } from '@arethetypeswrong/core';

/** What a consumer ships: package.json and the JavaScript and declarations of dist/ (source maps left out). */
function packageFiles(directory: string, name: string): Record<string, string> {
  const files: Record<string, string> = {};
  const prefix = `/node_modules/${name}`;
  files[`${prefix}/package.json`] = readFileSync(path.join(directory, 'package.json'), 'utf8');
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const full = path.join(folder, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (!entry.endsWith('.map'))
        files[`${prefix}/${path.relative(directory, full).split(path.sep).join('/')}`] = readFileSync(
          full,
          'utf8',
        );
    }
  };
  walk(path.join(directory, 'dist'));
  return files;
}

/** Problems attw finds in a built package (empty when none); the package must have dist/. */
export async function typeExportProblems(directory: string): Promise<string[]> {
  const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8'));
  if (!existsSync(path.join(directory, 'dist'))) throw new Error(`${manifest.name} has no dist/`);
  const result = await checkPackage(
    new Package(packageFiles(directory, manifest.name), manifest.name, manifest.version),
  );
  if (!result.types) return ['no types found'];
  return result.problems.map((problem) => {
    const where = 'entrypoint' in problem ? ` (${problem.entrypoint}, ${problem.resolutionKind})` : '';
    return `${problem.kind}${where}`;
  });
}
