module.exports = require('../../tools/jest-preset.cjs')(__dirname, {
  transformIgnorePatterns: [
    // @azure/core-rest-pipeline (through @corekit/sender-graph) loads ESM-only proxy agents; the OTLP/HTTP
    // exporters load node:http with a dynamic import() jest's CommonJS runtime refuses.
    '/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?(@scalar/(express-api-reference|client-side-rendering)|https-proxy-agent|http-proxy-agent|agent-base|proxy-agent-negotiate|@opentelemetry/otlp-exporter-base)/)',
  ],
});
