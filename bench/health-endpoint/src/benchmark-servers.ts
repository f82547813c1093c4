// The two servers of the benchmark, in one process: the Core web host with 18 dependency contributors (one of
// them taking 2 s per check) and a bare express route answering a JSON body of the same size. Prints one JSON
// line with both ports once both listen and the engine has started.
import type { DependencyHealthContributor } from '@corekit/abstractions';
import { createEngineBuilder } from '@corekit/engine-core';
import { createWebHost } from '@corekit/web-host';
import express from 'express';

const silent = { log: () => undefined };
const builder = createEngineBuilder({
  environment: {},
  logger: silent,
  configuration: { Engine: { Web: { BindAddress: '127.0.0.1', Health: { ShowDetails: 'Always' } } } },
});
for (let index = 1; index <= 18; index++) {
  const slow = index === 18;
  const contributor: DependencyHealthContributor = {
    id: slow ? 'slow-upstream' : `upstream-${String(index).padStart(2, '0')}`,
    displayName: slow ? 'Upstream taking 2 s per check' : `Upstream ${index}`,
    kind: 'Benchmark',
    required: index % 3 !== 0,
    refreshIntervalSeconds: 1,
    timeoutSeconds: 5,
    check: (signal) =>
      slow
        ? new Promise((resolve) => {
            const timer = setTimeout(
              () => resolve({ status: 'Healthy', description: 'answered after 2 s' }),
              2000,
            );
            signal.addEventListener('abort', () => clearTimeout(timer));
          })
        : Promise.resolve({ status: 'Healthy', description: 'answered at once' }),
  };
  builder.addDependencyHealthContributor(contributor);
}
const host = createWebHost(builder, { port: 0, title: 'Benchmark host' });
const { port: hostPort } = await host.listen();

const sample = await (await fetch(`http://127.0.0.1:${hostPort}/health/ready`)).text();
const body = JSON.parse(sample) as unknown;
const bare = express();
bare.get('/bare', (_request, response) => {
  response.json(body);
});
const bareServer = bare.listen(0, '127.0.0.1');
await new Promise((resolve) => bareServer.once('listening', resolve));
const barePort = (bareServer.address() as { port: number }).port;
process.stdout.write(`${JSON.stringify({ hostPort, barePort, bodyBytes: Buffer.byteLength(sample) })}\n`);
process.on('SIGTERM', () => bareServer.close());
