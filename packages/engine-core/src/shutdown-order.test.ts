import type { KeyedStore, RuntimeHookContext, StoreProvider } from '@corekit/abstractions';
import { MemoryStoreProvider } from './stores';
import { testBuilder } from './testing-support/engine-fixtures';

/** Waits for a condition, a turn of the event loop at a time (engine-core cannot use @corekit/testing). */
async function pollUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The one ordered, awaited stop (docs/packs.md, "Lifecycle"): Stopping, the packs' stopping hooks awaited,
 * jobs stopped (bounded by Engine:Shutdown:JobStopTimeout), the engine signal aborted, modules stopped, the
 * store provider closed. `restart()` takes the same steps.
 */

/** A store provider that records its close in `steps`. */
function recordingProvider(steps: string[]): StoreProvider {
  const memory = new MemoryStoreProvider();
  return {
    kind: memory.kind,
    durable: memory.durable,
    shared: memory.shared,
    open: <T>(name: string, options?: Parameters<StoreProvider['open']>[1]): KeyedStore<T> =>
      memory.open<T>(name, options),
    async close() {
      steps.push('stores-closed');
    },
  };
}

/** An engine with one pack (a slow stopping hook), one job that is running, one module and a store provider. */
function orderedEngine(configuration: Record<string, unknown> = {}) {
  const steps: string[] = [];
  const hookContexts: RuntimeHookContext[] = [];
  let jobSignal: AbortSignal | undefined;
  let engineSignal: AbortSignal | undefined;
  const { builder } = testBuilder({ configuration });
  builder.useStoreProvider(recordingProvider(steps));
  builder.addModule({
    id: 'orders',
    version: '1.0.0',
    start: (context) => {
      engineSignal = context.signal;
    },
    stop: () => {
      steps.push('module-stopped');
    },
  });
  const job = builder.addJob({
    id: 'dispatch',
    run: ({ signal }) =>
      new Promise<void>((resolve) => {
        jobSignal = signal;
        steps.push('job-running');
        signal.addEventListener('abort', () => {
          steps.push('job-aborted');
          resolve();
        });
      }),
  });
  builder.addLifecycleHooks({
    id: 'pack',
    async stopping(context) {
      hookContexts.push(context);
      steps.push(`hook-start:${context.state}:${context.signal.aborted ? 'aborted' : 'live'}`);
      // The hook finishes its work while the job still runs: nothing is stopped under it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      steps.push(`hook-end:job-${jobSignal?.aborted ? 'aborted' : 'live'}`);
    },
  });
  const engine = builder.build();
  return {
    engine,
    steps,
    hookContexts,
    job,
    engineSignal: () => engineSignal,
  };
}

describe('the ordered stop', () => {
  it('awaits every stopping hook before jobs stop and the signal aborts, then stops modules, then closes stores', async () => {
    const { engine, steps, job, engineSignal } = orderedEngine();
    await engine.start();
    void job.trigger();
    await pollUntil(() => steps.includes('job-running'));
    await engine.stop();
    expect(steps).toEqual([
      'job-running',
      'hook-start:Stopping:live',
      'hook-end:job-live',
      'job-aborted',
      'module-stopped',
      'stores-closed',
    ]);
    expect(engineSignal()?.aborted).toBe(true);
    expect(engine.state).toBe('Stopped');
  });

  it('beginShutdown() resolves once the stopping hooks finished; stop() then does not run them again', async () => {
    const { engine, steps } = orderedEngine();
    await engine.start();
    await engine.beginShutdown();
    expect(engine.state).toBe('Stopping');
    expect(steps).toEqual(['hook-start:Stopping:live', 'hook-end:job-live']);
    await engine.stop();
    expect(steps.filter((step) => step.startsWith('hook-start'))).toHaveLength(1);
    expect(steps.slice(-2)).toEqual(['module-stopped', 'stores-closed']);
  });

  it('restart() takes the same steps with restarting: true, keeps the stores open, and starts again', async () => {
    const { engine, steps, job, hookContexts } = orderedEngine();
    await engine.start();
    void job.trigger();
    await pollUntil(() => steps.includes('job-running'));
    await engine.restart();
    expect(steps).toEqual([
      'job-running',
      'hook-start:Stopping:live',
      'hook-end:job-live',
      'job-aborted',
      'module-stopped',
    ]);
    expect(hookContexts.map((context) => context.restarting)).toEqual([true]);
    expect(engine.state).toBe('Started');
    await engine.stop();
    expect(hookContexts.map((context) => context.restarting)).toEqual([true, false]);
  });

  it('a failed start runs the stopping hooks and closes the stores, so the packs release what they opened', async () => {
    const { builder } = testBuilder();
    const steps: string[] = [];
    builder.useStoreProvider(recordingProvider(steps));
    builder.addLifecycleHooks({
      id: 'opens-something',
      started: () => void steps.push('started'),
      stopping: (context) => void steps.push(`stopping:${context.state}`),
    });
    builder.addLifecycleHooks({
      id: 'fails',
      started: () => {
        throw new Error('the second pack cannot start');
      },
    });
    const engine = builder.build();
    await expect(engine.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    expect(steps).toEqual(['started', 'stopping:Starting', 'stores-closed']);
    expect(engine.state).toBe('Failed');
  });
});

describe('a restart whose start fails', () => {
  it('runs the stopping hooks once more and closes the stores, leaving the engine Failed', async () => {
    const { builder } = testBuilder();
    const steps: string[] = [];
    let starts = 0;
    builder.useStoreProvider(recordingProvider(steps));
    builder.addLifecycleHooks({
      id: 'second-start-fails',
      started: () => {
        starts++;
        if (starts === 2) throw new Error('cannot start twice');
      },
      stopping: (context) => void steps.push(`stopping:${context.state}:${context.restarting}`),
    });
    const engine = builder.build();
    await engine.start();
    await expect(engine.restart()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    expect(steps).toEqual(['stopping:Stopping:true', 'stopping:Starting:false', 'stores-closed']);
    expect(engine.state).toBe('Failed');
  });
});

describe('Engine:Shutdown bounds every wait of a stop', () => {
  it('JobStopTimeout bounds the wait for a job that ignores its signal (recorded as abandoned)', async () => {
    const { builder, logger } = testBuilder({
      configuration: { Engine: { Shutdown: { JobStopTimeout: '50ms' } } },
    });
    let running = false;
    const job = builder.addJob({
      id: 'stubborn',
      run: () =>
        new Promise<void>(() => {
          running = true;
        }),
    });
    const engine = builder.build();
    await engine.start();
    void job.trigger();
    await pollUntil(() => running);
    await engine.stop();
    expect(engine.state).toBe('Stopped');
    expect(logger.records.map((record) => record.message)).toContainEqual(
      expect.stringContaining('did not stop within 50 ms'),
    );
  });

  it('StoppingHooksTimeout bounds a stopping hook that never finishes; the stop goes on and says so', async () => {
    const { builder } = testBuilder({
      configuration: { Engine: { Shutdown: { StoppingHooksTimeout: '50ms' } } },
    });
    const steps: string[] = [];
    builder.addModule({ id: 'm', version: '1.0.0', stop: () => void steps.push('module-stopped') });
    builder.addLifecycleHooks({ id: 'stuck', stopping: () => new Promise<void>(() => undefined) });
    const engine = builder.build();
    await engine.start();
    await engine.stop();
    expect(steps).toEqual(['module-stopped']);
    const failures = engine.runtimeStory().timeline.filter((entry) => entry.transition === 'stop-failed');
    expect(failures).toContainEqual(
      expect.objectContaining({
        subjectId: 'stuck',
        message: expect.stringContaining('Engine:Shutdown:StoppingHooksTimeout (50 ms)'),
      }),
    );
  });

  it('StoreCloseTimeout bounds a store provider that never closes', async () => {
    const { builder } = testBuilder({
      configuration: { Engine: { Shutdown: { StoreCloseTimeout: '50ms' } } },
    });
    const memory = new MemoryStoreProvider();
    builder.useStoreProvider({
      kind: memory.kind,
      durable: memory.durable,
      shared: memory.shared,
      open: (name, options) => memory.open(name, options),
      close: () => new Promise<void>(() => undefined),
    });
    const engine = builder.build();
    await engine.start();
    await engine.stop();
    expect(engine.runtimeStory().timeline).toContainEqual(
      expect.objectContaining({
        kind: 'stores',
        message: expect.stringContaining('Engine:Shutdown:StoreCloseTimeout (50 ms)'),
      }),
    );
  });

  it('a misspelled Engine:Shutdown key fails the start with the closest key', async () => {
    const { builder } = testBuilder({
      configuration: { Engine: { Shutdown: { JobStopTimout: '5s' } } },
    });
    await expect(builder.build().start()).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: expect.stringContaining(
        '`Engine:Shutdown:JobStopTimout` is not a known key; did you mean `JobStopTimeout`?',
      ),
    });
  });

  it('an invalid Engine:Shutdown value fails the build naming the key path', () => {
    const { builder } = testBuilder({
      configuration: { Engine: { Shutdown: { StoppingHooksTimeout: 'soon' } } },
    });
    expect(() => builder.build()).toThrow(/Engine:Shutdown:StoppingHooksTimeout must be a duration/);
  });
});
