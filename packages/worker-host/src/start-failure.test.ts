import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { createWorkerHost } from './index';

/** A builder whose one module throws on its first `failures` starts. */
function builderFailing(failures: number) {
  const builder = createEngineBuilder({
    environment: { Engine__FailurePolicy__ManualRestartBackoff: '0s' },
    logger: createMemoryLogger(),
    contentRoot: __dirname,
  });
  let attempts = 0;
  builder.addModule({
    id: 'flaky',
    version: '1.0.0',
    start: () => {
      if (++attempts <= failures) throw Object.assign(new Error('not yet'), { code: 'FLAKY' });
    },
  });
  return builder;
}

const portInUse = () => Object.assign(new Error('port 8080 is in use'), { code: 'HOST_PORT_IN_USE' });

describe('a worker host after a failed start', () => {
  it('stop() resolves exit code 1 (and `stopped` with it) when the engine failed to start', async () => {
    const host = createWorkerHost(builderFailing(1), { handleSignals: false });
    await expect(host.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    expect(host.engine.state).toBe('Failed');
    expect(await host.stop('after failed start')).toBe(1);
    expect(await host.stopped).toBe(1);
  });

  it('stop() resolves 0 once a restart after the failed start succeeded', async () => {
    const host = createWorkerHost(builderFailing(1), { handleSignals: false });
    await expect(host.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    await host.engine.restart();
    expect(host.engine.state).toBe('Started');
    expect(await host.stop()).toBe(0);
  });

  it('recordStartFailure records Failed on the engine and, embedded, neither exits nor releases', async () => {
    const exits: number[] = [];
    const closed: string[] = [];
    const host = createWorkerHost(builderFailing(0), {
      handleSignals: false,
      exitProcess: false,
      exit: (code) => void exits.push(code),
    });
    host.addShutdownParticipant({
      name: 'http',
      drain: async () => undefined,
      close: async () => void closed.push('http'),
    });
    await host.recordStartFailure('host-listen', portInUse(), { restartable: false });
    expect(host.engine.state).toBe('Failed');
    expect(host.engine.status().lastFailure).toMatchObject({
      phase: 'host-listen',
      code: 'HOST_PORT_IN_USE',
      restartable: false,
    });
    expect(host.engine.runtimeStory().timeline).toContainEqual(
      expect.objectContaining({
        kind: 'failure',
        details: expect.objectContaining({ phase: 'host-listen' }),
      }),
    );
    expect([exits, closed]).toEqual([[], []]);
    await expect(host.start()).rejects.toMatchObject({
      code: 'ENGINE_NOT_RESTARTABLE',
      message: expect.stringContaining('HOST_PORT_IN_USE'),
    });
    expect(await host.stop()).toBe(1);
    expect(closed).toEqual(['http']);
  });

  it('recordStartFailure, when the host owns the process, closes every participant, reports and exits 1', async () => {
    const exits: number[] = [];
    const reports: string[] = [];
    const closed: string[] = [];
    const host = createWorkerHost(builderFailing(0), {
      handleSignals: false,
      exitProcess: true,
      exit: (code) => void exits.push(code),
      reportStartupError: (text) => void reports.push(text),
    });
    host.addShutdownParticipant({
      name: 'grpc',
      drain: async () => undefined,
      close: async () => void closed.push(`grpc (exits so far: ${exits.length})`),
    });
    await host.recordStartFailure('host-listen', portInUse(), { restartable: false });
    expect(closed).toEqual(['grpc (exits so far: 0)']);
    expect(exits).toEqual([1]);
    expect(reports).toEqual([expect.stringContaining('Startup failed: HOST_PORT_IN_USE')]);
    expect(await host.stopped).toBe(1);
  });
});
