const path = require('node:path');

// @scalar/express-api-reference and @scalar/client-side-rendering ship ES modules only: let @swc/jest
// transform them like the sources (the tsup build bundles them for the same reason).
const preset = require('../../tools/jest-preset.cjs')(__dirname, {
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?@scalar/(express-api-reference|client-side-rendering)/)',
  ],
});

module.exports = {
  ...preset,
  // The fuzz harness subpath (@corekit/callback-kit/fuzz) from its source, as the preset maps main entries.
  moduleNameMapper: {
    '^@corekit/callback-kit/fuzz$': path.join(__dirname, '../callback-kit/src/fuzz.ts'),
    ...preset.moduleNameMapper,
  },
};
