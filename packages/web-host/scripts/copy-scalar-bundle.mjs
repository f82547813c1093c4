// Copies the standalone browser bundle of @scalar/api-reference (a build-time dependency) into dist/scalar/, with a
// notice naming its version and licence, so the published package serves /scalar/standalone.js without installing
// Scalar's dependency tree (some 170 MB of Vue components, editors and icon sets the prebuilt bundle already holds).
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The package exports only its modules: its root is two folders above the main entry (dist/index.js).
const entry = createRequire(path.join(packageRoot, 'package.json')).resolve('@scalar/api-reference');
const scalarRoot = path.resolve(path.dirname(entry), '..');
const bundle = path.join(scalarRoot, 'dist', 'browser', 'standalone.js');
if (!existsSync(bundle))
  throw new Error(`@scalar/api-reference has no dist/browser/standalone.js (in ${scalarRoot})`);
const scalar = JSON.parse(readFileSync(path.join(scalarRoot, 'package.json'), 'utf8'));

const target = path.join(packageRoot, 'dist', 'scalar');
mkdirSync(target, { recursive: true });
copyFileSync(bundle, path.join(target, 'standalone.js'));
writeFileSync(
  path.join(target, 'NOTICE.md'),
  `standalone.js is the browser bundle of ${scalar.name} ${scalar.version} (${scalar.license} licence),\n` +
    `https://github.com/scalar/scalar/tree/main/${scalar.repository?.directory ?? ''}, copied unchanged at build time.\n`,
);
