// The Azure SDK's HTTP runtime requires https-proxy-agent, agent-base and proxy-agent-negotiate, which ship ES modules only (Node
// loads them with require(esm); jest's module system does not): transform them too.
module.exports = require('../../tools/jest-preset.cjs')(__dirname, {
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?(https-proxy-agent|http-proxy-agent|agent-base|proxy-agent-negotiate)/)',
  ],
});
