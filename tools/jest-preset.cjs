// The one jest preset: TypeScript through @swc/jest, workspace packages resolved to their sources so a
// change in one package is seen by the tests of another without a rebuild.
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** @param {string} packageDirectory */
module.exports = function jestPreset(packageDirectory, overrides = {}) {
  return {
    rootDir: packageDirectory,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/src/**/*.test.ts'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
          module: { type: 'commonjs' },
        },
      ],
    },
    moduleNameMapper: {
      // @corekit/testing by module (`@corekit/testing/poll-until`): a test loads only the helpers it uses.
      '^@corekit/testing/(.+)$': path.join(root, 'packages/testing/src/$1'),
      '^@corekit/([a-z0-9-]+)$': path.join(root, 'packages/$1/src/index.ts'),
    },
    testTimeout: 30000,
    // `pnpm test` sizes jest to the packages it runs side by side (tools/ci/run-tests.mjs); a plain `jest` keeps
    // jest's default.
    ...(process.env.COREKIT_JEST_WORKERS ? { maxWorkers: Number(process.env.COREKIT_JEST_WORKERS) } : {}),
    ...overrides,
  };
};
