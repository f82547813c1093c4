// The declarations the API reports are generated from: one TypeScript program over every published package's
// sources (`@corekit/*` mapped to `packages/*/src`, as `pnpm typecheck` does), emitting declarations only and
// without type checking (`noCheck`; `pnpm typecheck` checks). One program for all packages costs about a
// tenth of building each package's declarations with tsup (docs/releasing.md, "API reports").
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** Declarations emitted into a temporary folder laid out like the workspace (`packages/<folder>/src/*.d.ts`). */
export interface DeclarationTree {
  readonly directory: string;
  /** The folder of a package in the tree (its package.json is copied there, its node_modules linked). */
  packageDirectory(folder: string): string;
  /** The declaration of a package's entry point (`packages/<folder>/src/index.d.ts`). */
  entry(folder: string): string;
  remove(): void;
}

export async function emitDeclarations(root: string, folders: readonly string[]): Promise<DeclarationTree> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-api-declarations-'));
  const tsconfig = {
    extends: path.join(root, 'tsconfig.base.json'),
    compilerOptions: {
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      noCheck: true,
      sourceMap: false,
      declarationMap: false,
      rootDir: path.join(root, 'packages'),
      outDir: path.join(directory, 'packages'),
      baseUrl: root,
      paths: { '@corekit/*': ['./packages/*/src/index.ts'] },
      types: ['node'],
      typeRoots: [path.join(root, 'node_modules/@types')],
    },
    files: folders.map((folder) => path.join(root, 'packages', folder, 'src/index.ts')),
  };
  const file = path.join(directory, 'tsconfig.json');
  writeFileSync(file, JSON.stringify(tsconfig, null, 2));
  try {
    await promisify(execFile)(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', file],
      {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    rmSync(directory, { recursive: true, force: true });
    throw new Error(
      `emitting the declarations failed: ${failure.message}\n${failure.stdout ?? ''}${failure.stderr ?? ''}`,
    );
  }
  const packageDirectory = (folder: string) => path.join(directory, 'packages', folder);
  for (const folder of folders) {
    // API Extractor reads the package's name there, and the declarations resolve third-party imports (express,
    // zod...) through the package's own node_modules.
    mkdirSync(packageDirectory(folder), { recursive: true });
    cpSync(
      path.join(root, 'packages', folder, 'package.json'),
      path.join(packageDirectory(folder), 'package.json'),
    );
    const modules = path.join(root, 'packages', folder, 'node_modules');
    if (existsSync(modules)) symlinkSync(modules, path.join(packageDirectory(folder), 'node_modules'), 'dir');
  }
  return {
    directory,
    packageDirectory,
    entry: (folder) => path.join(packageDirectory(folder), 'src/index.d.ts'),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
