// `pnpm demo` (or `pnpm --filter @corekit/example-web-host start`): the sample host on PORT (default 3000).
// runStartup turns a startup failure (invalid configuration, a busy port) into one readable block on stderr
// and exit code 1; COREKIT_DEBUG=1 adds the stack trace.
import { runStartup } from '@corekit/worker-host';
import { createSampleHost } from './sample-host';

await runStartup(async () => {
  // OpenTelemetry comes with the host (addOpenTelemetry in createSampleHost): it flushes when the engine stops.
  const { host } = await createSampleHost();
  const otlp = Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
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
      `  metrics          ${url}/metrics${otlp ? '   (and OTLP to OTEL_EXPORTER_OTLP_ENDPOINT)' : ''}`,
      `  module route     ${url}/api/orders/status`,
      'Ctrl-C stops it gracefully.',
      '',
    ].join('\n') + '\n',
  );
});
