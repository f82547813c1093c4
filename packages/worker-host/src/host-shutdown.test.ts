import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import type { Engine } from '@corekit/abstractions';
import { HostShutdown, type HostLog } from './host-shutdown';
import { ShutdownParticipants } from './shutdown-participants';
import { StartFailures } from './start-failures';

function parts(start?: () => void, stop?: () => void) {
  const builder = createEngineBuilder({
    environment: {},
    logger: createMemoryLogger(),
    contentRoot: __dirname,
  });
  builder.addModule({ id: 'sample', version: '1.0.0', start: () => start?.(), stop: () => stop?.() });
  const engine = builder.build() as Engine;
  const records: string[] = [];
  const log: HostLog = (level, _eventId, message) => void records.push(`${level}: ${message}`);
  const events: string[] = [];
  const participants = new ShutdownParticipants(() => undefined);
  participants.add({
    name: 'http',
    drain: async () => void events.push(`drain (${engine.state})`),
    close: async () => void events.push(`close (${engine.state})`),
  });
  return {
    engine,
    records,
    log,
    events,
    participants,
    shutdown: new HostShutdown(engine, participants, log),
  };
}

describe('HostShutdown', () => {
  it('stops once: drains before the engine stops, closes after, and resolves stopped with the code', async () => {
    const { engine, events, records, shutdown } = parts();
    await engine.start();
    let finished = 0;
    shutdown.onFinished(() => finished++);
    const first = shutdown.stop('test');
    expect(shutdown.isStopping).toBe(true);
    expect(shutdown.stop('again')).toBe(first);
    expect(await first).toBe(0);
    expect(await shutdown.stopped).toBe(0);
    expect(events).toEqual(['drain (Stopping)', 'close (Stopped)']);
    expect(records).toContain('info: Host stopped (test), exit code 0');
    expect(finished).toBe(1);
  });

  it('answers 1 when the engine fails to stop or had failed to start, and still closes the participants', async () => {
    for (const engine of [
      {
        state: 'Started',
        beginShutdown: async () => undefined,
        stop: () => Promise.reject(new Error('stuck')),
      },
      { state: 'Failed', beginShutdown: async () => undefined, stop: async () => undefined },
    ]) {
      const events: string[] = [];
      const records: string[] = [];
      const participants = new ShutdownParticipants(() => undefined);
      participants.add({
        name: 'http',
        drain: async () => void events.push('drain'),
        close: async () => void events.push('close'),
      });
      const shutdown = new HostShutdown(engine as unknown as Engine, participants, (level, _id, message) =>
        records.push(`${level}: ${message}`),
      );
      expect(await shutdown.stop()).toBe(1);
      expect(events).toEqual(['drain', 'close']);
      expect(records.at(-1)).toBe('info: Host stopped (stop requested), exit code 1');
    }
  });
});

describe('StartFailures', () => {
  it('records, logs and, when the failure ends the process, releases, ends with 1 and reports', async () => {
    const { engine, events, log, shutdown } = parts();
    const reported: unknown[] = [];
    const failures = new StartFailures(engine, log, true, shutdown, (error) => reported.push(error));
    const error = new Error('port taken');
    failures.mark('host-listen', error, { restartable: false });
    await failures.failed(error);
    expect(engine.state).toBe('Failed');
    expect(engine.status().lastFailure).toMatchObject({ phase: 'host-listen' });
    expect(events).toEqual(['close (Failed)']);
    expect(reported).toEqual([error]);
    expect(await shutdown.stopped).toBe(1);
  });

  it('only logs when the failure does not end the process', async () => {
    const { engine, events, log, records, shutdown } = parts();
    const reported: unknown[] = [];
    const failures = new StartFailures(engine, log, false, shutdown, (error) => reported.push(error));
    await failures.failed(new Error('refused'));
    expect(records).toEqual(['error: The engine failed to start: refused']);
    expect(events).toEqual([]);
    expect(reported).toEqual([]);
  });
});
