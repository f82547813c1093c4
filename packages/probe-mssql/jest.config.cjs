// tedious loads @azure/identity, whose proxy agents ship as ES modules only; Node 20 can require them, jest's
// CommonJS runtime cannot, so those few packages are compiled by the preset's transform like our sources.
module.exports = require('../../tools/jest-preset.cjs')(__dirname, {
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/)?(agent-base|http-proxy-agent|https-proxy-agent|proxy-agent-negotiate)[@/])',
  ],
});
