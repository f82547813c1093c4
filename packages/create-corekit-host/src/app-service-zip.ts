import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';

interface LockEntry {
  readonly dev?: boolean;
  readonly extraneous?: boolean;
  readonly link?: boolean;
}

/** The installed packages a production install keeps: every lockfile entry under node_modules not marked dev. */
export function productionPackages(directory: string): string[] {
  const lockFile = ['package-lock.json', 'node_modules/.package-lock.json']
    .map((file) => path.join(directory, file))
    .find((file) => existsSync(file));
  if (!lockFile) throw new Error(`no package-lock.json in ${directory}: install with npm first`);
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages?: Record<string, LockEntry> };
  return Object.entries(lock.packages ?? {})
    .filter(
      ([key, entry]) => key.startsWith('node_modules/') && !entry.dev && !entry.extraneous && !entry.link,
    )
    .map(([key]) => key)
    .filter((key) => existsSync(path.join(directory, key)));
}

/**
 * Builds the app-service ZIP of the host in `directory`: dist/, package.json, engine*.json and the production part
 * of node_modules (the lockfile says which installed packages are dev-only; they are left out). The platform's
 * startup command is `node dist/main.js`. Needs a built dist/ and an npm-installed node_modules. What it cannot
 * check: that native modules built on this machine match the target platform's operating system and CPU.
 */
export function buildAppServiceZip(
  directory: string,
  output = path.join(directory, 'artifacts/app-service.zip'),
): string {
  for (const needed of ['dist/main.js', 'node_modules', 'package.json'])
    if (!existsSync(path.join(directory, needed)))
      throw new Error(`${needed} is missing in ${directory}: run npm install and npm run build first`);
  const zip = new AdmZip();
  zip.addLocalFolder(path.join(directory, 'dist'), 'dist');
  for (const file of ['package.json', 'package-lock.json'])
    if (existsSync(path.join(directory, file))) zip.addLocalFile(path.join(directory, file));
  for (const file of ['engine.json', 'engine.production.json', 'engine.staging.json'])
    if (existsSync(path.join(directory, file))) zip.addLocalFile(path.join(directory, file));
  for (const key of productionPackages(directory)) {
    // Nested node_modules are entries of their own in the lockfile: leave them to their own turn.
    zip.addLocalFolder(
      path.join(directory, key),
      key,
      // adm-zip hands the filter the path inside the ZIP, this package's key included.
      (name) => !/[\\/]node_modules([\\/]|$)/.test(name.slice(key.length)),
    );
  }
  mkdirSync(path.dirname(output), { recursive: true });
  zip.writeZip(output);
  return output;
}
