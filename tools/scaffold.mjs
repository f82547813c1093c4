// Creates the boilerplate of a package that does not exist yet (package.json, tsconfig, tsup and jest
// configs). Run once per new package: node tools/scaffold.mjs <folder> "<description>" [dep@range ...]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { supportedNodeRange } from './supported-node.mjs';

const [folder, description, ...dependencies] = process.argv.slice(2);
if (!folder || !description) {
  console.error('usage: node tools/scaffold.mjs <folder> "<description>" [dep@range ...]');
  process.exit(2);
}
const directory = path.resolve('packages', folder);
if (existsSync(path.join(directory, 'package.json'))) {
  console.error(`packages/${folder} already exists`);
  process.exit(1);
}
mkdirSync(path.join(directory, 'src'), { recursive: true });
const deps = {};
for (const spec of dependencies) {
  const at = spec.lastIndexOf('@');
  deps[spec.slice(0, at)] = spec.slice(at + 1);
}
const isLeaf = !['abstractions', 'engine-core', 'web-host', 'worker-host', 'testing'].includes(folder);
const peerDependencies = isLeaf ? { '@corekit/abstractions': 'workspace:^', zod: '^4.1.0' } : undefined;
const pkg = {
  name: `@corekit/${folder}`,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  sideEffects: false,
  ...(folder === 'testing' ? { private: true } : {}),
  main: './dist/index.cjs',
  module: './dist/index.js',
  types: './dist/index.d.cts',
  exports: {
    '.': {
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    },
    './package.json': './package.json',
  },
  files: ['dist', 'README.md'],
  engines: { node: supportedNodeRange },
  repository: {
    type: 'git',
    url: 'git+https://example.invalid/corekit.git',
    directory: `packages/${folder}`,
  },
  scripts: {
    build: 'tsup',
    test: 'jest',
    typecheck: 'tsc -p tsconfig.json',
    lint: 'eslint src',
  },
  dependencies: deps,
  ...(peerDependencies ? { peerDependencies } : {}),
  devDependencies: isLeaf
    ? { '@corekit/abstractions': 'workspace:^', '@corekit/testing': 'workspace:*', zod: '^4.1.0' }
    : {},
  ...(folder === 'testing' ? {} : { publishConfig: { access: 'public' } }),
};
writeFileSync(path.join(directory, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
writeFileSync(
  path.join(directory, 'tsconfig.json'),
  JSON.stringify({ extends: '../../tsconfig.base.json', include: ['src'] }, null, 2) + '\n',
);
writeFileSync(
  path.join(directory, 'tsup.config.ts'),
  "import { packageBuild } from '../../tools/tsup-preset';\n\nexport default packageBuild();\n",
);
writeFileSync(
  path.join(directory, 'jest.config.cjs'),
  "module.exports = require('../../tools/jest-preset.cjs')(__dirname);\n",
);
console.log(`scaffolded packages/${folder}`);
