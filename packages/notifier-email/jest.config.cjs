const preset = require('../../tools/jest-preset.cjs')(__dirname);

// @corekit/sender-graph loads @azure/core-rest-pipeline, whose proxy agents are ESM-only: Node loads them with
// require(esm), jest needs them transformed.
module.exports = {
  ...preset,
  transformIgnorePatterns: [
    '/node_modules/(?!.*(https-proxy-agent|http-proxy-agent|agent-base|proxy-agent-negotiate)/)',
  ],
};
