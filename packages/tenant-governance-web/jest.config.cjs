// @scalar/* (through the web host) and jose ship ES modules only, as do the proxy agents the Graph sender's
// @azure/core-rest-pipeline loads (pair tests): let @swc/jest transform them like the sources.
module.exports = require('../../tools/jest-preset.cjs')(__dirname, {
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?(@scalar/(express-api-reference|client-side-rendering)|jose|https-proxy-agent|http-proxy-agent|agent-base|proxy-agent-negotiate)/)',
  ],
});
