// One side of the benchmark, in its own process (the OpenTelemetry API is global to a process): the web host
// with six dependency contributors and the eventing pack (channel `orders`, one in-process subscription), with
// addOpenTelemetry when BENCH_TELEMETRY=on (its defaults: spans, metrics and logs pushed over OTLP/HTTP protobuf to
// BENCH_OTLP_URL, the Prometheus reader installed, traces sampled at up to 10 new ones per second) or always (the
// same, every trace recorded), without it when off. Prints one JSON line with its port.
import type { DependencyHealthContributor } from '@corekit/abstractions';
import { createEngineBuilder } from '@corekit/engine-core';
import { addEventing, declareEventing } from '@corekit/eventing';
import { addOpenTelemetry } from '@corekit/observability';
import { createWebHost } from '@corekit/web-host';

const side = process.env.BENCH_TELEMETRY ?? 'off';
if (!['off', 'on', 'always'].includes(side))
  throw new Error(`BENCH_TELEMETRY is "${side}"; expected off, on or always`);
const telemetry = side !== 'off';
const builder = createEngineBuilder({
  environment: {},
  logger: { log: () => undefined },
  configuration: { Engine: { Web: { BindAddress: '127.0.0.1', Health: { ShowDetails: 'Always' } } } },
});
for (let index = 1; index <= 6; index++) {
  const contributor: DependencyHealthContributor = {
    id: `upstream-${index}`,
    displayName: `Upstream ${index}`,
    kind: 'Benchmark',
    required: true,
    refreshIntervalSeconds: 1,
    timeoutSeconds: 5,
    check: () => Promise.resolve({ status: 'Healthy', description: 'answered at once' }),
  };
  builder.addDependencyHealthContributor(contributor);
}
builder.addModule({ id: 'orders', version: '1.0.0' });
declareEventing(builder, {
  moduleId: 'orders',
  channels: [{ id: 'orders', eventTypes: ['order-placed'] }],
  subscriptions: [{ id: 'billing', channelId: 'orders', eventTypes: [], execute: () => undefined }],
  publishers: [{ id: 'orders.api', channelIds: ['orders'] }],
});
addEventing(builder);
if (telemetry) {
  addOpenTelemetry(builder, {
    ServiceName: 'telemetry-benchmark',
    Otlp: { Endpoint: process.env.BENCH_OTLP_URL, Protocol: 'http/protobuf' },
    ...(side === 'always' ? { Sampling: { Strategy: 'AlwaysOn' as const } } : {}),
    // BENCH_TRACES_PER_SECOND: another rate limit for side `on` (a profile under valgrind, which slows the server
    // to about 50 requests a second, sets it near zero to see a busy server's steady state: no trace recorded).
    ...(side === 'on' && process.env.BENCH_TRACES_PER_SECOND
      ? { Sampling: { TracesPerSecond: Number(process.env.BENCH_TRACES_PER_SECOND) } }
      : {}),
  });
}
const host = createWebHost(builder, { port: 0, title: 'Benchmark host', environment: {} });
const { port } = await host.listen();
process.stdout.write(`${JSON.stringify({ port, telemetry: side })}\n`);
process.on('SIGTERM', () => void host.close().then(() => process.exit(0)));
