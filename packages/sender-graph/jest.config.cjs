const preset = require('../../tools/jest-preset.cjs')(__dirname);

// @azure/core-rest-pipeline loads ESM-only proxy agents; Node loads them with require(esm), jest needs them transformed.
module.exports = {
  ...preset,
  transformIgnorePatterns: [
    '/node_modules/(?!.*(https-proxy-agent|http-proxy-agent|agent-base|proxy-agent-negotiate)/)',
  ],
};
