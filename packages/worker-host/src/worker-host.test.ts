import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { createWorkerHost } from './index';

function builderWith(start?: () => void) {
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({ environment: {}, logger, contentRoot: __dirname });
  const events: string[] = [];
  builder.addModule({
    id: 'sample',
    version: '1.0.0',
    start: () => {
      start?.();
      events.push('module started');
    },
    stop: () => void events.push('module stopped'),
  });
  return { builder, logger, events };
}

/** A builder whose environment misspells `Engine:FailurePolicy:StartupReadinessDelay` (one `s` too many). */
function misspelledKeyBuilder() {
  return createEngineBuilder({
    environment: { Engine__FailurePolicy__StartupReadinessDelays: '00:00:05' },
    logger: createMemoryLogger(),
    contentRoot: __dirname,
  });
}

describe('createWorkerHost', () => {
  it('builds the engine from a builder and starts it', async () => {
    const { builder } = builderWith();
    const host = createWorkerHost(builder, { handleSignals: false });
    await host.start();
    expect(host.engine.state).toBe('Started');
    expect(await host.stop()).toBe(0);
    expect(host.engine.state).toBe('Stopped');
  });

  it('drains participants after readiness turned Unhealthy and before the engine stops, then closes them', async () => {
    const { builder, events } = builderWith();
    const host = createWorkerHost(builder, { handleSignals: false });
    host.addShutdownParticipant({
      name: 'http',
      drain: async () => {
        events.push(`drain: readiness ${host.engine.readiness().status}, state ${host.engine.state}`);
      },
      close: async () => void events.push(`close: state ${host.engine.state}`),
    });
    await host.start();
    await host.stop();
    expect(events).toEqual([
      'module started',
      'drain: readiness Unhealthy, state Stopping',
      'module stopped',
      'close: state Stopped',
    ]);
  });

  it("awaits the packs' stopping hooks before draining participants", async () => {
    const { builder, events } = builderWith();
    builder.addLifecycleHooks({
      id: 'pack',
      stopping: async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        events.push('pack stopping finished');
      },
    });
    const host = createWorkerHost(builder, { handleSignals: false });
    host.addShutdownParticipant({
      name: 'http',
      refuse: () => void events.push('refuse new work'),
      drain: async () => void events.push('drain'),
    });
    await host.start();
    await host.stop();
    expect(events).toEqual([
      'module started',
      'refuse new work',
      'pack stopping finished',
      'drain',
      'module stopped',
    ]);
  });

  it('a failed start that ends the process closes every participant and the stores before the report and exit(1)', async () => {
    const { builder, events } = builderWith(() => {
      throw new Error('boom');
    });
    const exits: number[] = [];
    const reports: string[] = [];
    const host = createWorkerHost(builder, {
      handleSignals: false,
      exitProcess: true,
      exit: (code) => void exits.push(code),
      reportStartupError: (text) => void reports.push(text),
    });
    host.addShutdownParticipant({
      name: 'http',
      drain: async () => void events.push('drain'),
      close: async () => void events.push(`close (exits so far: ${exits.length})`),
    });
    expect(host.endsOnStartFailure).toBe(true);
    await expect(host.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    expect(events).toEqual(['module stopped', 'close (exits so far: 0)']);
    expect(exits).toEqual([1]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('Startup failed: ENGINE_START_FAILED');
  });

  it('checkConfiguration() ends the process on an unknown key before anything starts, naming the closest key', async () => {
    const builder = misspelledKeyBuilder();
    const exits: number[] = [];
    const reports: string[] = [];
    const closed: string[] = [];
    const host = createWorkerHost(builder, {
      handleSignals: false,
      exitProcess: true,
      exit: (code) => void exits.push(code),
      reportStartupError: (text) => void reports.push(text),
    });
    host.addShutdownParticipant({
      name: 'http',
      drain: async () => undefined,
      close: async () => void closed.push('http'),
    });
    await expect(host.checkConfiguration()).rejects.toMatchObject({ code: 'CONFIGURATION_INVALID' });
    expect(host.engine.state).toBe('Failed');
    expect(host.engine.status().lastFailure).toMatchObject({ phase: 'configuration', restartable: false });
    expect(closed).toEqual(['http']);
    expect(exits).toEqual([1]);
    expect(reports[0]).toContain('did you mean `StartupReadinessDelay`?');
  });

  it('a host that does not own the process records a refused configuration check as a runtime failure', async () => {
    const builder = misspelledKeyBuilder();
    const exits: number[] = [];
    const host = createWorkerHost(builder, { handleSignals: false, exit: (code) => void exits.push(code) });
    await expect(host.checkConfiguration()).rejects.toMatchObject({ code: 'CONFIGURATION_INVALID' });
    // As a host that owns its process records it before it exits: Failed, lastFailure with the problems.
    expect(host.engine.state).toBe('Failed');
    expect(host.engine.status().liveness).toBe('Unhealthy');
    expect(host.engine.status().lastFailure).toMatchObject({
      phase: 'configuration',
      code: 'CONFIGURATION_INVALID',
      restartable: false,
      message: expect.stringContaining('did you mean `StartupReadinessDelay`?'),
    });
    await expect(host.start()).rejects.toMatchObject({ code: 'ENGINE_NOT_RESTARTABLE' });
    expect(await host.stop()).toBe(1);
    expect(exits).toEqual([]);
  });

  it('stop is idempotent and `stopped` resolves with the exit code', async () => {
    const { builder } = builderWith();
    const host = createWorkerHost(builder, { handleSignals: false });
    await host.start();
    const [first, second] = await Promise.all([host.stop('first'), host.stop('second')]);
    expect([first, second, await host.stopped]).toEqual([0, 0, 0]);
  });

  it('run() resolves 1 and exit(1) is called when the engine fails to start', async () => {
    const { builder, logger } = builderWith(() => {
      throw new Error('boom');
    });
    const exits: number[] = [];
    const host = createWorkerHost(builder, {
      handleSignals: false,
      exitProcess: true,
      exit: (code) => void exits.push(code),
    });
    expect(await host.run()).toBe(1);
    expect(exits).toEqual([1]);
    expect(host.engine.state).toBe('Failed');
    expect(
      logger.records.some((record) => record.category === 'worker-host' && record.eventId === 2002),
    ).toBe(true);
  });

  it('start() rejects with the engine error when the engine fails and the process is not managed', async () => {
    const { builder } = builderWith(() => {
      throw new Error('boom');
    });
    const host = createWorkerHost(builder, { handleSignals: false });
    await expect(host.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
  });

  it('accepts an engine that is already built', async () => {
    const { builder } = builderWith();
    const engine = builder.build();
    const host = createWorkerHost(engine, { handleSignals: false });
    expect(host.engine).toBe(engine);
    await host.start();
    await host.stop();
  });

  it('refuses something that is neither a builder nor an engine, naming what to pass', () => {
    expect(() => createWorkerHost({} as never)).toThrow(/createEngineBuilder/);
  });

  it('installs SIGTERM and SIGINT handlers while running and removes them when stopped', async () => {
    const { builder } = builderWith();
    const before = { term: process.listenerCount('SIGTERM'), int: process.listenerCount('SIGINT') };
    const host = createWorkerHost(builder, { exitProcess: false });
    await host.start();
    expect(process.listenerCount('SIGTERM')).toBe(before.term + 1);
    expect(process.listenerCount('SIGINT')).toBe(before.int + 1);
    await host.stop();
    expect(process.listenerCount('SIGTERM')).toBe(before.term);
    expect(process.listenerCount('SIGINT')).toBe(before.int);
  });
});
