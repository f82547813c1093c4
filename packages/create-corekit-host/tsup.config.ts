import { readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageBuild } from '../../tools/tsup-preset';

/**
 * dist/corekit-versions.json: the version of every published workspace package at build time, so the generator
 * installed from a registry (no workspace around it) pins the versions it was released with.
 */
function writeVersions(): void {
  const packages = path.resolve(__dirname, '..');
  const versions: Record<string, string> = {};
  for (const folder of readdirSync(packages)) {
    const file = path.join(packages, folder, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    if (!pkg.private) versions[pkg.name] = pkg.version;
  }
  writeFileSync(path.join(__dirname, 'dist/corekit-versions.json'), `${JSON.stringify(versions, null, 2)}\n`);
}

export default packageBuild({
  entry: ['src/index.ts', 'src/cli.ts', 'src/host-cli.ts'],
  onSuccess: async () => writeVersions(),
});
