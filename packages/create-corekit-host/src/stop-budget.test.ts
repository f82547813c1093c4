import { performance } from 'node:perf_hooks';
import { createEngineBuilder, MemoryStoreProvider } from '@corekit/engine-core';
import { captureLogger } from '@corekit/testing/capture-logger';
import { pollUntil } from '@corekit/testing/poll-until';
import { createWebHost } from '@corekit/web-host';
import { computeTimings } from './timings';

// The deployment formulas must hold every wait a stop can take. A real web host on the engine's defaults is stopped
// with each wait at its worst: a pack whose stopping hook never finishes, a request that never answers, a job that
// ignores its signal and a store provider that never closes. The stop must still end within the stop time the
// generator computes for the same (default) configuration, which is what the grace periods are built from.
jest.setTimeout(180_000);

it('a stop with every wait at its worst, on the engine defaults, ends within the computed stop time', async () => {
  const timings = computeTimings({});
  const builder = createEngineBuilder({ contentRoot: __dirname, environment: {}, logger: captureLogger() });
  const memory = new MemoryStoreProvider();
  builder.useStoreProvider({
    kind: memory.kind,
    durable: memory.durable,
    shared: memory.shared,
    open: (name, options) => memory.open(name, options),
    close: () => new Promise<void>(() => undefined),
  });
  builder.addLifecycleHooks({ id: 'stuck-pack', stopping: () => new Promise<void>(() => undefined) });
  let jobRunning = false;
  const job = builder.addJob({
    id: 'stubborn-job',
    run: () =>
      new Promise<void>(() => {
        jobRunning = true;
      }),
  });
  const host = createWebHost(builder, { port: 0, handleSignals: false, environment: {} });
  let requestArrived = false;
  host.addRoute({
    method: 'get',
    path: '/api/never',
    summary: 'Never answers',
    responses: { 200: { description: 'never sent' } },
    handler: () => {
      requestArrived = true;
    },
  });
  const { url } = await host.listen();
  void job.trigger();
  const request = fetch(`${url.replace('localhost', '127.0.0.1')}/api/never`).catch(() => undefined);
  expect(await pollUntil(async () => jobRunning && requestArrived, Boolean)).toBe(true);

  const began = performance.now();
  await host.close();
  const stopSeconds = (performance.now() - began) / 1000;
  await request;

  expect(host.engine.state).toBe('Stopped');
  expect(stopSeconds).toBeLessThan(timings.get('shutdown.stopSeconds'));
  expect(stopSeconds).toBeLessThan(
    timings.get('kubernetes.terminationGracePeriodSeconds') - timings.get('preStop.sleepSeconds'),
  );
});
