// The upgrade writer's project: a consumer of the previous release (upgrade-writer/, pinned exact versions from the
// local registry), installed with npm, compiled with tsc and started once per step of the upgrade test.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LocalRegistry } from '@corekit/testing/local-registry';
import { workspaceRoot } from './consumer-project';
import { upgradeWriterPackages } from './previous-release';

/**
 * A CommonJS project (no `"type": "module"`): the writer's files are the previous sample host's, whose relative
 * imports carry no extension. `skipLibCheck`: the previous release's web-host declarations name express's types,
 * which it did not depend on then (fixed since; the round trip's consumer checks the current declarations).
 */
const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node'],
    outDir: 'dist',
    rootDir: 'src',
  },
  include: ['src'],
};

/** Writes package.json (the previous versions, exact), .npmrc (the @corekit scope from `registry`) and src/. */
export function writeUpgradeWriterProject(
  directory: string,
  registry: LocalRegistry,
  versions: Readonly<Record<string, string>>,
): void {
  mkdirSync(directory, { recursive: true });
  const dependencies = Object.fromEntries(
    upgradeWriterPackages.map((name) => {
      const version = versions[name];
      if (!version) throw new Error(`${name} is not in the previous release (previous-release/release.json)`);
      return [name, version];
    }),
  );
  const manifest = {
    name: 'corekit-upgrade-writer',
    version: '1.0.0',
    private: true,
    dependencies: { ...dependencies, zod: '^4.1.0' },
    devDependencies: { '@types/node': '^20.19.0' },
  };
  writeFileSync(path.join(directory, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(directory, '.npmrc'), registry.npmrc());
  writeFileSync(path.join(directory, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  cpSync(path.join(workspaceRoot, 'packages/release-roundtrip/upgrade-writer'), path.join(directory, 'src'), {
    recursive: true,
  });
}
