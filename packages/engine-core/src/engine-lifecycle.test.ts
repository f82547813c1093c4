import { CoreError, type ModuleDefinition } from '@corekit/abstractions';
import { controllableContributor, failingModule, testBuilder } from './testing-support/engine-fixtures';

const policy = {
  StartupReadinessDelay: '10s',
  ShutdownLivenessGracePeriod: '20s',
  ManualRestartBackoff: '30s',
};

function build(
  modules: ModuleDefinition[] = [],
  configure?: (builder: ReturnType<typeof testBuilder>['builder']) => void,
) {
  const fixture = testBuilder({ configuration: { Engine: { FailurePolicy: policy } } });
  for (const module of modules) fixture.builder.addModule(module);
  configure?.(fixture.builder);
  return { ...fixture, engine: fixture.builder.build() };
}

describe('spec 3.1: /health/live', () => {
  it('is Healthy while the process is alive, including before and during startup', async () => {
    let release!: () => void;
    const slowStart = new Promise<void>((resolve) => (release = resolve));
    const { engine } = build([{ id: 'slow', version: '1.0.0', start: () => slowStart }]);
    expect(engine.liveness().status).toBe('Healthy');
    const starting = engine.start();
    await Promise.resolve();
    expect(engine.state).toBe('Starting');
    expect(engine.liveness().status).toBe('Healthy');
    release();
    await starting;
    expect(engine.liveness().status).toBe('Healthy');
  });

  it('is Unhealthy when the runtime enters Failed', async () => {
    const { engine } = build([failingModule('broken')]);
    await expect(engine.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    expect(engine.state).toBe('Failed');
    expect(engine.liveness().status).toBe('Unhealthy');
  });

  it('is Unhealthy when the runtime is Stopped', async () => {
    const { engine } = build();
    await engine.start();
    await engine.stop();
    expect(engine.liveness().status).toBe('Unhealthy');
    expect(engine.liveness().reasons).toContain('the runtime is Stopped');
  });

  it('is Degraded when the runtime is live but a dependency is degraded or unhealthy', async () => {
    const required = controllableContributor('db', { required: true, status: 'Unhealthy' });
    const { engine } = build([], (builder) => builder.addDependencyHealthContributor(required));
    await engine.start();
    expect(engine.liveness().status).toBe('Degraded');
  });

  it('stays Healthy during the shutdown drain and turns Unhealthy when the grace period expires', async () => {
    const { engine, clock } = build();
    await engine.start();
    clock.advance(60_000);
    engine.beginShutdown();
    const during = engine.liveness();
    expect(during.status).toBe('Healthy');
    expect(during.activeWindow).toBe('ShutdownLivenessGracePeriod');
    expect(Date.parse(during.activeWindowEndsAtUtc!)).toBe(clock.now() + 20_000);
    clock.advance(19_999);
    expect(engine.liveness().status).toBe('Healthy');
    clock.advance(1);
    expect(engine.liveness().status).toBe('Unhealthy');
    await engine.stop();
    expect(engine.state).toBe('Stopped');
  });
});

describe('spec 3.1: /health/ready', () => {
  it('is Healthy only once Started and the StartupReadinessDelay window has ended', async () => {
    const { engine, clock } = build();
    await engine.start();
    const warmUp = engine.readiness();
    expect(warmUp.status).toBe('Unhealthy');
    expect(warmUp.activeWindow).toBe('StartupReadinessDelay');
    expect(Date.parse(warmUp.activeWindowEndsAtUtc!)).toBe(clock.now() + 10_000);
    clock.advance(9_999);
    expect(engine.readiness().status).toBe('Unhealthy');
    clock.advance(1);
    const ready = engine.readiness();
    expect(ready.status).toBe('Healthy');
    expect(ready.activeWindow).toBeUndefined();
  });

  it('is Unhealthy during startup, shutdown, stopped and failed states', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { engine, clock } = build([{ id: 'gate', version: '1.0.0', start: () => gate }]);
    expect(engine.readiness().status).toBe('Unhealthy');
    const starting = engine.start();
    await Promise.resolve();
    expect(engine.state).toBe('Starting');
    expect(engine.readiness().status).toBe('Unhealthy');
    release();
    await starting;
    clock.advance(10_000);
    expect(engine.readiness().status).toBe('Healthy');
    engine.beginShutdown();
    expect(engine.state).toBe('Stopping');
    expect(engine.readiness().status).toBe('Unhealthy');
    await engine.stop();
    expect(engine.readiness().status).toBe('Unhealthy');

    const failed = build([failingModule('broken')]).engine;
    await failed.start().catch(() => undefined);
    expect(failed.readiness().status).toBe('Unhealthy');
  });

  it('is Unhealthy when a required dependency is Unhealthy', async () => {
    const required = controllableContributor('db', { required: true, status: 'Unhealthy' });
    const { engine, clock } = build([], (builder) => builder.addDependencyHealthContributor(required));
    await engine.start();
    clock.advance(10_000);
    const report = engine.readiness();
    expect(report.status).toBe('Unhealthy');
    expect(report.reasons).toContain('required dependency db is Unhealthy');
  });

  it('is Degraded when only optional dependencies fail, or required ones are only degraded', async () => {
    const optional = controllableContributor('cache', { required: false, status: 'Unhealthy' });
    const required = controllableContributor('db', { required: true, status: 'Healthy' });
    const { engine, clock } = build([], (builder) =>
      builder.addDependencyHealthContributor(optional).addDependencyHealthContributor(required),
    );
    await engine.start();
    clock.advance(10_000);
    expect(engine.readiness().status).toBe('Degraded');

    optional.set('Healthy');
    required.set('Degraded');
    await engine.refreshDependencies();
    expect(engine.readiness().status).toBe('Degraded');

    required.set('Unhealthy');
    await engine.refreshDependencies();
    expect(engine.readiness().status).toBe('Unhealthy');

    required.set('Healthy');
    await engine.refreshDependencies();
    expect(engine.readiness().status).toBe('Healthy');
    await engine.stop();
  });
});

describe('spec 3.1: restart after a restartable startup failure', () => {
  it('is refused before restartAvailableAtUtc and allowed after it', async () => {
    let attempts = 0;
    const flaky: ModuleDefinition = {
      id: 'flaky',
      version: '2.1.0',
      start() {
        attempts++;
        if (attempts === 1) throw Object.assign(new Error('database not ready'), { code: 'DB_NOT_READY' });
      },
    };
    const { engine, clock } = build([flaky]);
    const failedAt = clock.now();
    await expect(engine.start()).rejects.toThrow(/module flaky/);

    const report = engine.health();
    expect(report.runtime.lastFailure).toMatchObject({
      phase: 'module-start',
      moduleId: 'flaky',
      code: 'DB_NOT_READY',
      message: 'database not ready',
      restartable: true,
    });
    expect(report.restartAvailableAtUtc).toBe(new Date(failedAt + 30_000).toISOString());
    expect(report.activeWindow).toBe('ManualRestartBackoff');

    clock.advance(29_000);
    const refused = await engine.restart().catch((error: CoreError) => error);
    expect(refused).toBeInstanceOf(CoreError);
    expect((refused as CoreError).code).toBe('ENGINE_RESTART_BACKOFF');
    expect((refused as CoreError).message).toContain(new Date(failedAt + 30_000).toISOString());
    expect(engine.state).toBe('Failed');

    clock.advance(1_000);
    await engine.restart();
    expect(engine.state).toBe('Started');
    expect(engine.health().runtime.restartCount).toBe(1);
    expect(engine.health().restartAvailableAtUtc).toBeUndefined();
    await engine.stop();
  });

  it('stops the modules that did start when a later one fails, in reverse order', async () => {
    const calls: string[] = [];
    const tracked = (id: string): ModuleDefinition => ({
      id,
      version: '1.0.0',
      start: () => void calls.push(`start ${id}`),
      stop: () => void calls.push(`stop ${id}`),
    });
    const { engine } = build([tracked('a'), tracked('b'), failingModule('c')]);
    await engine.start().catch(() => undefined);
    expect(calls).toEqual(['start a', 'start b', 'stop b', 'stop a']);
  });
});

describe('pack lifecycle hooks', () => {
  it('tell the starting, started and stopping hooks whether they run as part of a restart', async () => {
    const seen: string[] = [];
    const { engine } = build([], (builder) =>
      builder.addLifecycleHooks({
        id: 'watcher',
        starting: ({ restarting }) => void seen.push(`starting restarting=${restarting}`),
        started: ({ restarting }) => void seen.push(`started restarting=${restarting}`),
        stopping: ({ restarting }) => void seen.push(`stopping restarting=${restarting}`),
      }),
    );
    await engine.start();
    await engine.restart();
    await engine.stop();
    await engine.restart();
    engine.beginShutdown();
    await engine.stop();
    expect(seen).toEqual([
      'starting restarting=false',
      'started restarting=false',
      'stopping restarting=true',
      'starting restarting=true',
      'started restarting=true',
      'stopping restarting=false',
      'starting restarting=true',
      'started restarting=true',
      'stopping restarting=false',
    ]);
  });

  it('runs starting first in a start, before modules, and a failed start runs stopping after it', async () => {
    const calls: string[] = [];
    const { engine } = build(
      [
        {
          id: 'm',
          version: '1.0.0',
          start: () => void calls.push('start m'),
          stop: () => void calls.push('stop m'),
        },
      ],
      (builder) =>
        builder.addLifecycleHooks({
          id: 'watcher',
          starting: ({ state }) => void calls.push(`starting in ${state}`),
          started: () => {
            throw new Error('refused');
          },
          stopping: ({ state }) => void calls.push(`stopping in ${state}`),
        }),
    );
    await expect(engine.start()).rejects.toMatchObject({ details: { phase: 'pack-started' } });
    expect(calls).toEqual(['starting in Starting', 'start m', 'stopping in Starting', 'stop m']);
  });

  it('fails the start in phase pack-starting when a starting hook throws, and runs stopping', async () => {
    const calls: string[] = [];
    const { engine } = build([], (builder) =>
      builder.addLifecycleHooks({
        id: 'watcher',
        starting: () => {
          throw new Error('no provider');
        },
        stopping: () => void calls.push('stopping'),
      }),
    );
    await expect(engine.start()).rejects.toMatchObject({ details: { phase: 'pack-starting' } });
    expect(calls).toEqual(['stopping']);
    expect(engine.state).toBe('Failed');
  });
});

describe('build-time validation', () => {
  it('fails on duplicate module ids and contributor ids, listing both', () => {
    const { builder } = testBuilder();
    builder.addModule({ id: 'm', version: '1.0.0' }).addModule({ id: 'm', version: '1.0.0' });
    builder
      .addDependencyHealthContributor(controllableContributor('d'))
      .addDependencyHealthContributor(controllableContributor('d'));
    expect(() => builder.build()).toThrow(
      /module id "m" is registered twice[\s\S]*contributor id "d" is registered twice/,
    );
  });

  it('refuses a second build from the same builder', () => {
    const { builder } = testBuilder();
    builder.build();
    expect(() => builder.build()).toThrow(expect.objectContaining({ code: 'ENGINE_ALREADY_BUILT' }));
  });
});
