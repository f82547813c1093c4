import { CoreError, type ModuleDefinition } from '@corekit/abstractions';
import { startupOptionsSchema } from './engine-options';
import { failingModule, testBuilder } from './testing-support/engine-fixtures';

function build(configuration: Record<string, unknown> = {}, modules: ModuleDefinition[] = []) {
  const fixture = testBuilder({ configuration: { Engine: configuration } });
  for (const module of modules) fixture.builder.addModule(module);
  return { ...fixture, engine: fixture.builder.build() };
}

/** A module whose start never settles until the test releases it; records its signal. */
function hangingModule(id = 'hangs') {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const seen: { signal?: AbortSignal; stopped: boolean } = { stopped: false };
  const module: ModuleDefinition = {
    id,
    version: '1.0.0',
    start(context) {
      seen.signal = context.signal;
      return released;
    },
    stop() {
      seen.stopped = true;
    },
  };
  return { module, release, seen };
}

const failureEntries = (engine: ReturnType<typeof build>['engine']) =>
  engine.runtimeStory().timeline.filter((entry) => entry.kind === 'failure');

describe('a start that fails before Starting (strict configuration)', () => {
  it('ends in Failed with a lastFailure that is not restartable and a failure story entry', async () => {
    const { engine } = build({ FailurePolicy: { StartupReadinessDelays: '5s' } });
    await expect(engine.start()).rejects.toMatchObject({ code: 'CONFIGURATION_INVALID' });
    expect(engine.state).toBe('Failed');
    expect(engine.status().lastFailure).toMatchObject({
      phase: 'configuration',
      moduleId: null,
      code: 'CONFIGURATION_INVALID',
      message: expect.stringContaining('Engine:FailurePolicy:StartupReadinessDelays'),
      restartable: false,
    });
    expect(Date.parse(engine.status().lastFailure!.occurredAtUtc)).not.toBeNaN();
    expect(engine.snapshot()).toMatchObject({
      status: { state: 'Failed', lastFailure: { code: 'CONFIGURATION_INVALID', restartable: false } },
    });
    expect(failureEntries(engine)).toEqual([
      expect.objectContaining({
        transition: 'failed',
        details: expect.objectContaining({ phase: 'configuration', restartable: false }),
      }),
    ]);
    expect(engine.readiness().status).toBe('Unhealthy');
    expect(engine.liveness().status).toBe('Unhealthy');
  });

  it('refuses start() and restart() afterwards with ENGINE_NOT_RESTARTABLE carrying the original failure', async () => {
    const { engine } = build({ Shutdown: { JobStopTimeot: '1s' } });
    const original = await engine.start().catch((error: unknown) => error);
    for (const attempt of [() => engine.start(), () => engine.restart()]) {
      const refused = await attempt().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(CoreError);
      expect(refused).toMatchObject({
        code: 'ENGINE_NOT_RESTARTABLE',
        message: expect.stringContaining('CONFIGURATION_INVALID'),
        details: { lastFailure: expect.objectContaining({ phase: 'configuration' }) },
      });
      expect((refused as Error).message).toContain('Engine:Shutdown:JobStopTimeot');
      expect((refused as Error).cause).toBe(original);
    }
    expect(engine.state).toBe('Failed');
    expect(engine.health().runtime.restartCount).toBe(0);
  });

  it('checkConfiguration() before the start is the same failure', async () => {
    const { engine } = build({ Startup: { Timout: '1s' } });
    expect(() => engine.checkConfiguration()).toThrow(
      expect.objectContaining({ code: 'CONFIGURATION_INVALID' }),
    );
    expect(engine.state).toBe('Failed');
    expect(engine.status().lastFailure).toMatchObject({ phase: 'configuration', restartable: false });
    await expect(engine.start()).rejects.toMatchObject({ code: 'ENGINE_NOT_RESTARTABLE' });
  });
});

describe('recordStartFailure (a failure the host found itself)', () => {
  it('turns Created into Failed with the phase, code and restartable it was given', async () => {
    const { engine } = build();
    const listen = Object.assign(new Error('port 8080 is in use'), { code: 'HOST_PORT_IN_USE' });
    engine.recordStartFailure('host-listen', listen, { restartable: false });
    expect(engine.state).toBe('Failed');
    expect(engine.status().lastFailure).toMatchObject({
      phase: 'host-listen',
      code: 'HOST_PORT_IN_USE',
      message: 'port 8080 is in use',
      restartable: false,
    });
    expect(failureEntries(engine)).toHaveLength(1);
    await expect(engine.restart()).rejects.toMatchObject({
      code: 'ENGINE_NOT_RESTARTABLE',
      message: expect.stringContaining('HOST_PORT_IN_USE'),
    });
  });

  it('is restartable unless told otherwise, and a later start then works', async () => {
    const { engine } = build();
    engine.recordStartFailure('host-mount', new Error('not ready yet'));
    expect(engine.status().lastFailure).toMatchObject({ code: 'MODULE_FAILED', restartable: true });
    await engine.start();
    expect(engine.state).toBe('Started');
    await engine.stop();
  });

  it('is refused while the runtime runs', async () => {
    const { engine } = build();
    await engine.start();
    expect(() => engine.recordStartFailure('host-listen', new Error('late'))).toThrow(
      expect.objectContaining({ code: 'ENGINE_INVALID_STATE' }),
    );
    expect(engine.state).toBe('Started');
    await engine.stop();
  });
});

describe('Engine:Startup:Timeout', () => {
  it('fails a start whose module never finishes with ENGINE_START_TIMEOUT, restartable, the module stopped', async () => {
    const { module, release, seen } = hangingModule();
    const { engine } = build({ Startup: { Timeout: '20ms' } }, [module]);
    const error = await engine.start().catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'ENGINE_START_TIMEOUT',
      message: expect.stringContaining('Engine:Startup:Timeout'),
      details: { phase: 'module-start', moduleId: 'hangs', timeoutMs: 20 },
    });
    expect(engine.state).toBe('Failed');
    expect(engine.status().lastFailure).toMatchObject({
      phase: 'module-start',
      moduleId: 'hangs',
      code: 'ENGINE_START_TIMEOUT',
      restartable: true,
    });
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.stopped).toBe(true);
    release();
  });

  it('does not start later modules once the hung start finishes after the timeout', async () => {
    const { module, release } = hangingModule();
    let laterStarts = 0;
    const later: ModuleDefinition = { id: 'later', version: '1.0.0', start: () => void laterStarts++ };
    const { engine } = build({ Startup: { Timeout: '20ms' } }, [module, later]);
    await expect(engine.start()).rejects.toMatchObject({ code: 'ENGINE_START_TIMEOUT' });
    release();
    // Let the released start run its continuation: it must refuse the next step.
    await new Promise((resolve) => setImmediate(resolve));
    expect(laterStarts).toBe(0);
    expect(engine.state).toBe('Failed');
  });

  it('is restartable: after the backoff, restart() starts the runtime', async () => {
    let attempts = 0;
    let release!: () => void;
    const hangsOnce: ModuleDefinition = {
      id: 'hangs-once',
      version: '1.0.0',
      start: () => (++attempts === 1 ? new Promise<void>((resolve) => (release = resolve)) : undefined),
    };
    const { engine, clock } = build(
      { Startup: { Timeout: '20ms' }, FailurePolicy: { ManualRestartBackoff: '1s' } },
      [hangsOnce],
    );
    await expect(engine.start()).rejects.toMatchObject({ code: 'ENGINE_START_TIMEOUT' });
    clock.advance(1_000);
    await engine.restart();
    expect(engine.state).toBe('Started');
    expect(engine.status().restartCount).toBe(1);
    release();
    await engine.stop();
  });

  it.each([
    ['a bare number', 5, 'add a unit'],
    ['a word', 'soon', 'must be a duration'],
    ['more than a timer holds', '30d', 'at most'],
  ])('refuses %s at build time, naming the key', (_label, value, problem) => {
    const fixture = testBuilder({ configuration: { Engine: { Startup: { Timeout: value } } } });
    expect(() => fixture.builder.build()).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        message: expect.stringMatching(new RegExp(`Engine:Startup:Timeout[\\s\\S]*${problem}`)),
      }),
    );
  });

  it('bounds nothing by default (0s)', () => {
    expect(startupOptionsSchema.parse({})).toEqual({ Timeout: 0 });
    expect(startupOptionsSchema.parse({ Timeout: '0s' })).toEqual({ Timeout: 0 });
  });
});

describe('module failures stay restartable', () => {
  it('a module whose start throws leaves Failed with restartable true, and start() is allowed again', async () => {
    const { engine } = build({}, [failingModule('broken')]);
    await expect(engine.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    expect(engine.status().lastFailure).toMatchObject({ phase: 'module-start', restartable: true });
    await expect(engine.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
  });
});

describe('a configuration error thrown during the start', () => {
  it('is not restartable even when a module throws it', async () => {
    const reads: ModuleDefinition = {
      id: 'reads-late',
      version: '1.0.0',
      start: () => {
        throw new CoreError('CONFIGURATION_INVALID', 'Engine:Late:Port must be an integer, got "eighty"');
      },
    };
    const { engine } = build({}, [reads]);
    await expect(engine.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    expect(engine.status().lastFailure).toMatchObject({
      phase: 'module-start',
      code: 'CONFIGURATION_INVALID',
      restartable: false,
    });
    await expect(engine.restart()).rejects.toMatchObject({ code: 'ENGINE_NOT_RESTARTABLE' });
  });
});
