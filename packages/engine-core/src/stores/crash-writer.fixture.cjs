// Child process of the SIGKILL test in file-store.test.ts: writes a large value to one file store in a tight
// loop and prints `wrote <seq>` once each put has resolved. TypeScript sources are compiled on load by
// @swc/core (a root devDependency), with @corekit/* mapped to the workspace sources as jest maps them.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const packagesRoot = path.resolve(__dirname, '../../..');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const workspace = /^@corekit\/([a-z0-9-]+)$/.exec(request);
  const target = workspace ? path.join(packagesRoot, workspace[1], 'src/index.ts') : request;
  return resolveFilename.call(this, target, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

const { FileStoreProvider } = require('./file-store.ts');
const { crashTestValue } = require('./crash-test-value.ts');

async function main() {
  const store = new FileStoreProvider({ directory: process.env.STORE_DIRECTORY }).open('crash');
  let seq = (await store.get('big'))?.value.seq ?? 0;
  for (;;) {
    seq += 1;
    await store.put('big', crashTestValue(seq));
    process.stdout.write(`wrote ${seq}\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
