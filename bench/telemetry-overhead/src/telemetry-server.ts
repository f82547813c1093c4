// One side of the benchmark, in its own process (the OpenTelemetry API is global to a process): the web host
// with six dependency contributors and the eventing pack (channel `orders`, one in-process subscription), with
// addOpenTelemetry when BENCH_TELEMETRY=on (spans, metrics and logs pushed over OTLP/HTTP protobuf to
// BENCH_OTLP_URL, the Prometheus reader installed), without it when off. Prints one JSON line with its port.
import type { DependencyHealthContributor } from '@corekit/abstractions';
import { createEngineBuilder } from '@corekit/engine-core';
import { addEventing, declareEventing } from '@corekit/eventing';
import { addOpenTelemetry } from '@corekit/observability';
import { createWebHost } from '@corekit/web-host';

const telemetry = process.env.BENCH_TELEMETRY === 'on';
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
  });
}
const host = createWebHost(builder, { port: 0, title: 'Benchmark host', environment: {} });
const { port } = await host.listen();
process.stdout.write(`${JSON.stringify({ port, telemetry })}\n`);
process.on('SIGTERM', () => void host.close().then(() => process.exit(0)));
