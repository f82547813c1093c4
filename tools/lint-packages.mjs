// Checks what every package under packages/ must have (STYLE.md): README, src/index.ts, the exports map with
// types/import/require, files, engines, repository.directory, the add*/create* export its kind calls for, a
// built dist that publint accepts; and the one supported Node.js range (tools/supported-node.mjs) in every
// workspace package.json and in create-corekit-host's host template. Exits 1 listing every problem.
//
// `--built-only` (what CI runs, after the tests built what they use): a package without dist/ is listed, not
// failed, and publint reads every package that has one. `pnpm release` runs the whole check after a full build,
// so nothing is published unchecked.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { publint } from 'publint';
import { supportedNodeRange } from './supported-node.mjs';

const root = path.resolve(import.meta.dirname, '..');
const packagesDirectory = path.join(root, 'packages');

/** The registration export each kind of package must offer, by folder prefix or name. */
function expectedExport(folder) {
  const pascal = (text) => text.replace(/(^|-)([a-z0-9])/g, (_, __, letter) => letter.toUpperCase());
  if (folder === 'engine-core') return /export\s*\{[^}]*\bcreateEngineBuilder\b/;
  if (folder === 'web-host') return /export\s*\{[^}]*\bcreateWebHost\b/;
  if (folder === 'worker-host') return /export\s*\{[^}]*\bcreateWorkerHost\b/;
  // A kit (probe-kit, sender-kit, transport-kit) holds what its family shares: no registration function.
  if (folder.endsWith('-kit')) return null;
  if (folder.startsWith('probe-')) return new RegExp(`\\badd\\w*Health\\b`);
  if (folder.startsWith('sender-')) return /\badd\w*InvitationDelivery\b/;
  if (folder.startsWith('callback-')) return /\bmap\w*StatusCallbacks\b/;
  if (folder.startsWith('transport-')) return /\badd\w*Transport\b/;
  if (folder.startsWith('observability-')) return /\badd\w*Observability\b/;
  if (folder.startsWith('notifier-')) return /\badd\w*Notifier\b/;
  void pascal;
  return null;
}

const builtOnly = process.argv.includes('--built-only');
const unknownFlags = process.argv.slice(2).filter((argument) => argument !== '--built-only');
if (unknownFlags.length > 0) {
  console.error(`unknown argument ${unknownFlags[0]} (known: --built-only)`);
  process.exit(2);
}
const notBuilt = [];
const problems = [];
const folders = readdirSync(packagesDirectory).filter((name) =>
  existsSync(path.join(packagesDirectory, name, 'package.json')),
);
for (const folder of folders) {
  const directory = path.join(packagesDirectory, folder);
  const pkg = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8'));
  const report = (message) => problems.push(`packages/${folder}: ${message}`);
  // `npm create <x>` looks for the package create-<x>: create-* folders keep their unscoped name.
  const expectedName = folder.startsWith('create-') ? folder : `@corekit/${folder}`;
  if (pkg.name !== expectedName) report(`name must be ${expectedName}, is ${pkg.name}`);
  if (!existsSync(path.join(directory, 'README.md'))) report('README.md is missing');
  const indexFile = path.join(directory, 'src/index.ts');
  if (!existsSync(indexFile)) report('src/index.ts is missing');
  if (pkg.private) continue;
  const dot = pkg.exports?.['.'];
  if (!dot?.import?.types || !dot?.import?.default || !dot?.require?.types || !dot?.require?.default) {
    report('exports["."] must map import and require, each with types and default');
  }
  if (!Array.isArray(pkg.files) || !pkg.files.includes('dist')) report('files must include dist');
  if (pkg.repository?.directory !== `packages/${folder}`)
    report(`repository.directory must be packages/${folder}`);
  if (pkg.sideEffects !== false) report('sideEffects must be false (nothing registers itself on import)');
  const pattern = expectedExport(folder);
  if (pattern && existsSync(indexFile) && !pattern.test(readFileSync(indexFile, 'utf8'))) {
    report(`src/index.ts must export the registration function (${pattern})`);
  }
  if (!existsSync(path.join(directory, 'dist'))) {
    if (builtOnly) notBuilt.push(folder);
    else report('dist/ is missing: run pnpm build first');
    continue;
  }
  const { messages } = await publint({ pkgDir: directory, level: 'warning', strict: true });
  for (const message of messages)
    report(`publint ${message.type} ${message.code} ${JSON.stringify(message.args ?? {})}`);
}

// One supported Node.js range everywhere: the root, every workspace folder (pnpm-workspace.yaml's `dir/*`
// entries), and the package.json a generated host gets.
const workspaceGlobs = [
  ...readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^\s*-\s*'?([\w-]+)\/\*'?\s*$/gm),
].map((match) => match[1]);
const manifests = [
  'package.json',
  ...workspaceGlobs.flatMap((parent) =>
    readdirSync(path.join(root, parent))
      .map((name) => `${parent}/${name}/package.json`)
      .filter((file) => existsSync(path.join(root, file))),
  ),
];
for (const file of manifests) {
  const range = JSON.parse(readFileSync(path.join(root, file), 'utf8')).engines?.node;
  if (range !== supportedNodeRange)
    problems.push(`${file}: engines.node must be "${supportedNodeRange}", is ${JSON.stringify(range)}`);
}
const hostTemplate = 'packages/create-corekit-host/templates/host/package.json.tmpl';
const templateRange = /"engines":\s*\{\s*"node":\s*"([^"]*)"/.exec(
  readFileSync(path.join(root, hostTemplate), 'utf8'),
)?.[1];
if (templateRange !== supportedNodeRange)
  problems.push(
    `${hostTemplate}: engines.node must be "${supportedNodeRange}", is ${JSON.stringify(templateRange)}`,
  );

// The layering rule must be live: lint code that breaks it in each layer and expect the rule to fire.
const eslint = new ESLint({ cwd: root });
const layeringCases = [
  [
    'packages/abstractions/src/layering-check.ts',
    "import { createEngineBuilder } from '@corekit/engine-core';",
  ],
  ['packages/engine-core/src/layering-check.ts', "import { createWebHost } from '@corekit/web-host';"],
  [
    'packages/probe-redis/src/layering-check.ts',
    "import { createEngineBuilder } from '@corekit/engine-core';",
  ],
  ['packages/eventing/src/layering-check.ts', "import { createWorkerHost } from '@corekit/worker-host';"],
];
for (const [filePath, code] of layeringCases) {
  const [result] = await eslint.lintText(
    `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)[1]}];\n`,
    {
      filePath: path.join(root, filePath),
    },
  );
  if (!result.messages.some((message) => message.ruleId === 'no-restricted-imports')) {
    problems.push(`the layering rule did not fire for ${filePath} (eslint.config.mjs)`);
  }
}

if (problems.length > 0) {
  console.error(`Package checks failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
if (notBuilt.length > 0) {
  console.log(
    `--built-only: publint skipped ${notBuilt.length} package(s) without dist/ (${notBuilt.join(', ')})`,
  );
}
console.log(
  `Package checks passed for ${folders.length} packages; engines.node is ${supportedNodeRange} in ${manifests.length} ` +
    'package.json files and the host template; the layering rule fires in every layer.',
);
