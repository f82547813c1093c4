const path = require('node:path');
const preset = require('../../tools/jest-preset.cjs')(__dirname);

// The shared sender test host lives on the sender-kit subpath 'testing'.
// @azure/core-rest-pipeline loads ESM-only proxy agents; Node loads them with require(esm), jest needs them transformed.
module.exports = {
  ...preset,
  transformIgnorePatterns: [
    '/node_modules/(?!.*(https-proxy-agent|http-proxy-agent|agent-base|proxy-agent-negotiate)/)',
  ],
  moduleNameMapper: {
    '^@corekit/sender-kit/testing$': path.join(__dirname, '../sender-kit/src/testing/index.ts'),
    ...preset.moduleNameMapper,
  },
};
