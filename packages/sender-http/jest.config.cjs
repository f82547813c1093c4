const preset = require('../../tools/jest-preset.cjs')(__dirname);

// all-senders.test.ts loads sender-graph, whose @azure/core-rest-pipeline pulls ESM-only proxy agents.
module.exports = {
  ...preset,
  transformIgnorePatterns: [
    '/node_modules/(?!.*(https-proxy-agent|http-proxy-agent|agent-base|proxy-agent-negotiate)/)',
  ],
};
