// The HTTP tests load the web host, whose @scalar dependencies ship ES modules only, and the OTLP/HTTP
// exporters load node:http with a dynamic import() that jest's CommonJS runtime refuses: transform both.
module.exports = require('../../tools/jest-preset.cjs')(__dirname, {
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?(@scalar/(express-api-reference|client-side-rendering)|@opentelemetry/otlp-exporter-base)/)',
  ],
});
