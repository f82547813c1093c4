// The packs test builds a web host from the sources: @scalar/express-api-reference and
// @scalar/client-side-rendering ship ES modules only, so @swc/jest transforms them as web-host's own tests do.
module.exports = require('../../tools/jest-preset.cjs')(__dirname, {
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?@scalar/(express-api-reference|client-side-rendering)/)',
  ],
});
