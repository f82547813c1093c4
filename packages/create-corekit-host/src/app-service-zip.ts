import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AdmZip from 'adm-zip';

/**
 * Builds the app-service ZIP of the host in `directory`: dist/, package.json, engine*.json and node_modules pruned to
 * production dependencies (a copy is pruned with `npm prune --omit=dev`, so file: and registry dependencies alike
 * come as installed). The platform's startup command is `node dist/main.js`. Needs a built dist/ and an installed
 * node_modules; what it cannot check is that native modules built here match the target platform's.
 */
export function buildAppServiceZip(
  directory: string,
  output = path.join(directory, 'artifacts/app-service.zip'),
): string {
  for (const needed of ['dist/main.js', 'node_modules', 'package.json'])
    if (!existsSync(path.join(directory, needed)))
      throw new Error(`${needed} is missing in ${directory}: run npm install and npm run build first`);
  const stage = mkdtempSync(path.join(os.tmpdir(), 'corekit-zip-'));
  try {
    for (const entry of ['dist', 'node_modules', 'package.json', 'package-lock.json', 'engine.json'])
      if (existsSync(path.join(directory, entry)))
        cpSync(path.join(directory, entry), path.join(stage, entry), {
          recursive: true,
          verbatimSymlinks: true,
        });
    for (const file of ['engine.production.json', 'engine.staging.json'])
      if (existsSync(path.join(directory, file))) cpSync(path.join(directory, file), path.join(stage, file));
    execFileSync('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund', '--offline'], {
      cwd: stage,
      stdio: 'pipe',
    });
    const zip = new AdmZip();
    zip.addLocalFolder(stage);
    mkdirSync(path.dirname(output), { recursive: true });
    zip.writeZip(output);
    return output;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
