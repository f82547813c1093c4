// The web host's sources are mapped in (no rebuild needed); its ESM-only Scalar dependencies need the same
// transform exception as in packages/web-host.
module.exports = require('../../tools/jest-preset.cjs')(__dirname, {
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?@scalar/(express-api-reference|client-side-rendering)/)',
  ],
});
