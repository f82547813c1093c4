// @scalar/express-api-reference and @scalar/client-side-rendering ship ES modules only: let @swc/jest
// transform them like the sources (the tsup build bundles them for the same reason).
module.exports = require('../../tools/jest-preset.cjs')(__dirname, {
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?@scalar/(express-api-reference|client-side-rendering)/)',
  ],
});
