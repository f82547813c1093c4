// A worker host run as a child process by worker-host-process.test.ts. FIXTURE_MODE selects the scenario:
// `clean` (default) runs until a signal; `fail-start` has a module whose start throws; `slow-drain` registers
// a shutdown participant that only finishes when the drain is cut by a second signal.
import { createEngineBuilder } from '@corekit/engine-core';
import { createWorkerHost } from '../index';

const mode = process.env.FIXTURE_MODE ?? 'clean';
const builder = createEngineBuilder({ environment: {} });
builder.addModule({
  id: 'fixture-worker',
  version: '1.0.0',
  start() {
    if (mode === 'fail-start') throw new Error('the fixture module refuses to start');
  },
  stop() {
    process.stdout.write(`${JSON.stringify({ fixture: 'module-stopped' })}\n`);
  },
});
const host = createWorkerHost(builder);
if (mode === 'slow-drain') {
  host.addShutdownParticipant({
    name: 'slow-participant',
    drain: (signal) =>
      new Promise<void>((resolve) => {
        process.stdout.write(`${JSON.stringify({ fixture: 'draining' })}\n`);
        signal.addEventListener('abort', () => {
          process.stdout.write(`${JSON.stringify({ fixture: 'drain-cut' })}\n`);
          resolve();
        });
      }),
  });
}
void host.run();
