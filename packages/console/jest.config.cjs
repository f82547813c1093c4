// The console's tests read the built browser assets (dist/ui): the global setup builds them when missing.
// @scalar/* (through the web host) ships ES modules only: let @swc/jest transform it like the sources.
module.exports = require('../../tools/jest-preset.cjs')(__dirname, {
  globalSetup: '<rootDir>/src/test-support/build-assets.cjs',
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?@scalar/(express-api-reference|client-side-rendering)/)',
  ],
});
