// `pnpm demo` (or `pnpm --filter @corekit/example-web-host start`): the sample host on PORT (default 3000).
import { createSampleHost } from './sample-host';

const { host } = await createSampleHost();
const { url } = await host.listen();
process.stdout.write(
  [
    '',
    `Core sample host on ${url}`,
    `  readiness        ${url}/health/ready`,
    `  every surface    ${url}/engine`,
    `  snapshot         ${url}/engine/snapshot`,
    `  API reference    ${url}/scalar   (OpenAPI: ${url}/openapi/v1.json)`,
    `  live events      ${url}/engine/events`,
    `  module route     ${url}/api/operations/status`,
    'Ctrl-C stops it gracefully.',
    '',
  ].join('\n') + '\n',
);
