import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AdmZip from 'adm-zip';
import { buildAppServiceZip, productionPackages } from './app-service-zip';

let host = '';

/** A built host with an npm-installed node_modules: a production package with a nested dependency, a dev one. */
function installedHost(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-zip-'));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(directory, file)), { recursive: true });
    writeFileSync(path.join(directory, file), text);
  };
  write('package.json', '{"name":"orders","scripts":{"start":"node dist/main.js"}}');
  write('engine.json', '{"Engine":{}}');
  write('dist/main.js', 'console.log("ready")');
  write('node_modules/express/index.js', 'module.exports = 1');
  write('node_modules/express/node_modules/qs/index.js', 'module.exports = 2');
  write('node_modules/tsup/index.js', 'module.exports = 3');
  write('node_modules/left-over/index.js', 'module.exports = 4');
  write(
    'package-lock.json',
    JSON.stringify({
      packages: {
        '': { name: 'orders' },
        'node_modules/express': {},
        'node_modules/express/node_modules/qs': {},
        'node_modules/tsup': { dev: true },
        'node_modules/left-over': { extraneous: true },
        'node_modules/not-installed': {},
      },
    }),
  );
  return directory;
}

beforeEach(() => {
  host = installedHost();
});
afterEach(() => rmSync(host, { recursive: true, force: true }));

it('keeps the installed production packages the lockfile names, nested ones as entries of their own', () => {
  expect(productionPackages(host)).toEqual(['node_modules/express', 'node_modules/express/node_modules/qs']);
});

it('zips dist, the configuration and the production packages, each file once, without dev packages', () => {
  const zip = new AdmZip(buildAppServiceZip(host));
  const names = zip
    .getEntries()
    .filter((entry) => !entry.isDirectory)
    .map((entry) => entry.entryName)
    .sort();
  expect(names).toEqual([
    'dist/main.js',
    'engine.json',
    'node_modules/express/index.js',
    'node_modules/express/node_modules/qs/index.js',
    'package-lock.json',
    'package.json',
  ]);
  expect(zip.readAsText('node_modules/express/node_modules/qs/index.js')).toBe('module.exports = 2');
});

it('refuses a host that was not built or installed, saying what to run', () => {
  rmSync(path.join(host, 'dist'), { recursive: true });
  expect(() => buildAppServiceZip(host)).toThrow('dist/main.js is missing');
  rmSync(path.join(host, 'package-lock.json'));
  expect(() => productionPackages(host)).toThrow('install with npm first');
});
