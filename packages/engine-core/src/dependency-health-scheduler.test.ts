import type { DependencyHealthContributor } from '@corekit/abstractions';
import { countActiveResources, resourcesAbove } from '@corekit/testing/active-resources';
import { pollUntil } from '@corekit/testing/poll-until';
import { createEngineBuilder } from './engine-builder';
import { controllableContributor, testBuilder } from './testing-support/engine-fixtures';

function hangingContributor(options: { honoursSignal: boolean }) {
  const state = { started: 0, settle: () => {}, signal: null as AbortSignal | null };
  const contributor: DependencyHealthContributor = {
    id: 'hangs',
    displayName: 'Hangs',
    kind: 'Test',
    required: true,
    timeoutSeconds: 0.2,
    refreshIntervalSeconds: 60,
    check(signal) {
      state.started++;
      state.signal = signal;
      return new Promise((resolve, reject) => {
        state.settle = () => resolve({ status: 'Healthy' });
        if (options.honoursSignal) signal.addEventListener('abort', () => reject(new Error('aborted')));
      });
    },
  };
  return { contributor, state };
}

describe('dependency-health scheduler', () => {
  it('times out a check that ignores its AbortSignal, on schedule, and reports it as timed out', async () => {
    const { contributor, state } = hangingContributor({ honoursSignal: false });
    const { builder, logger } = testBuilder();
    const engine = builder.addDependencyHealthContributor(contributor).build();
    const started = Date.now();
    await engine.start();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(5_000);
    const [entry] = engine.dependencies();
    expect(entry).toMatchObject({
      status: 'Unhealthy',
      timedOut: true,
      error: { code: 'DEPENDENCY_TIMEOUT' },
    });
    expect(logger.records.some((record) => record.eventId === 3001)).toBe(true);
    state.settle();
    await engine.stop();
  });

  it('does not start a contributor again while its abandoned run is still pending', async () => {
    const { contributor, state } = hangingContributor({ honoursSignal: false });
    const { builder, logger } = testBuilder();
    const engine = builder.addDependencyHealthContributor(contributor).build();
    await engine.start();
    expect(state.started).toBe(1);
    await engine.refreshDependencies();
    await engine.refreshDependencies();
    expect(state.started).toBe(1);
    expect(logger.records.filter((record) => record.eventId === 3003)).toHaveLength(2);

    state.settle();
    await new Promise((resolve) => setImmediate(resolve));
    await engine.refreshDependencies();
    expect(state.started).toBe(2);
    state.settle();
    await engine.stop();
  });

  it('aborts the signal of a timed-out check so a cooperative check can release its connection', async () => {
    const { contributor, state } = hangingContributor({ honoursSignal: true });
    const { builder } = testBuilder();
    const engine = builder.addDependencyHealthContributor(contributor).build();
    await engine.start();
    expect(state.signal?.aborted).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    await engine.refreshDependencies();
    expect(engine.dependencies()[0].timedOut).toBe(true);
    await engine.stop();
  });

  it('never runs two checks of one contributor at once, however often a refresh is requested', async () => {
    let active = 0;
    let maximum = 0;
    let runs = 0;
    const contributor: DependencyHealthContributor = {
      id: 'slow',
      displayName: 'Slow',
      kind: 'Test',
      required: false,
      timeoutSeconds: 2,
      async check() {
        runs++;
        active++;
        maximum = Math.max(maximum, active);
        await new Promise((resolve) => setTimeout(resolve, 30));
        active--;
        return { status: 'Healthy' };
      },
    };
    const { builder } = testBuilder();
    const engine = builder.addDependencyHealthContributor(contributor).build();
    await engine.start();
    await Promise.all(Array.from({ length: 10 }, () => engine.refreshDependencies()));
    expect(maximum).toBe(1);
    expect(runs).toBe(2);
    await engine.stop();
  });

  it('reads cached results: reading health never runs a check', async () => {
    const contributor = controllableContributor('db');
    const { builder } = testBuilder();
    const engine = builder.addDependencyHealthContributor(contributor).build();
    await engine.start();
    for (let index = 0; index < 50; index++) {
      engine.readiness();
      engine.liveness();
      engine.health();
      engine.dependencies();
    }
    expect(contributor.runs).toBe(1);
    await engine.stop();
  });

  it('marks a result stale past max(interval + timeout + 1 s, 3 intervals) and never reports it Healthy', async () => {
    const contributor = controllableContributor('db', { refreshIntervalSeconds: 10 });
    const { builder, clock } = testBuilder();
    const engine = builder.addDependencyHealthContributor(contributor).build();
    await engine.start();
    const fresh = engine.dependencies()[0];
    expect(fresh).toMatchObject({ status: 'Healthy', stale: false, durationMs: expect.any(Number) });
    expect(fresh.checkedAtUtc).toBe(new Date(clock.now()).toISOString());

    clock.advance(30_000);
    expect(engine.dependencies()[0].stale).toBe(false);
    clock.advance(1);
    const stale = engine.dependencies()[0];
    expect(stale.stale).toBe(true);
    expect(stale.status).toBe('Unhealthy');
    expect(engine.readiness().status).toBe('Unhealthy');

    await engine.refreshDependencies();
    expect(engine.dependencies()[0]).toMatchObject({ status: 'Healthy', stale: false });
    await engine.stop();
  });

  it('reports a thrown error as Unhealthy with its code and message, redacting registered secrets', async () => {
    const contributor: DependencyHealthContributor = {
      id: 'throws',
      displayName: 'Throws',
      kind: 'Test',
      required: true,
      async check() {
        throw Object.assign(new Error('login failed for password hunter2-secret'), { code: 'AUTH_FAILED' });
      },
    };
    const { builder, logger } = testBuilder();
    builder.addSecret('hunter2-secret');
    const engine = builder.addDependencyHealthContributor(contributor).build();
    await engine.start();
    const [entry] = engine.dependencies();
    expect(entry.error).toEqual({ code: 'AUTH_FAILED', message: 'login failed for password ***' });
    expect(JSON.stringify(logger.records)).not.toContain('hunter2-secret');
    await engine.stop();
  });

  it.each([
    [{ status: 'UP' }],
    [{ status: 'Healthy', error: 'oops' }],
    [null],
    [{ status: 'Healthy', extra: 1 }],
  ])('reports a malformed result %j as Unhealthy instead of trusting it', async (answer) => {
    const contributor: DependencyHealthContributor = {
      id: 'odd',
      displayName: 'Odd',
      kind: 'Test',
      required: true,
      check: async () => answer as never,
    };
    const { builder } = testBuilder();
    const engine = builder.addDependencyHealthContributor(contributor).build();
    await engine.start();
    const [entry] = engine.dependencies();
    const accepted = JSON.stringify(answer) === JSON.stringify({ status: 'Healthy', extra: 1 });
    expect(entry.status).toBe(accepted ? 'Healthy' : 'Unhealthy');
    if (!accepted) expect(entry.error?.code).toBe('DEPENDENCY_RESULT_INVALID');
    await engine.stop();
  });

  it('logs the contributor kind event ids on status changes only', async () => {
    const contributor = { ...controllableContributor('db'), eventIds: { healthy: 3122, unhealthy: 3123 } };
    const { builder, logger } = testBuilder();
    const engine = builder.addDependencyHealthContributor(contributor).build();
    await engine.start();
    await engine.refreshDependencies();
    contributor.set('Unhealthy');
    await engine.refreshDependencies();
    await engine.refreshDependencies();
    const ids = logger.records
      .filter((record) => record.category === 'dependency-health.Test')
      .map((record) => record.eventId);
    expect(ids).toEqual([3122, 3123]);
    await engine.stop();
  });

  it('refresh timers never keep the process alive', async () => {
    // Read in this process, so the test needs no build: what keeps Node's event loop alive once the engine has
    // started and checked its dependency (process.getActiveResourcesInfo() lists only referenced handles).
    const baseline = countActiveResources();
    let checks = 0;
    const builder = createEngineBuilder({ environment: {}, logger: { log() {} } });
    builder.addDependencyHealthContributor({
      id: 'x',
      displayName: 'x',
      kind: 'Test',
      required: true,
      refreshIntervalSeconds: 1,
      timeoutSeconds: 1,
      check: async () => ((checks += 1), { status: 'Healthy' }),
    });
    const engine = builder.build();
    await engine.start();
    try {
      await pollUntil(
        async () => checks,
        (count) => count >= 1,
        { timeoutMs: 10_000 },
      );
      expect(resourcesAbove(baseline)).toEqual({});
    } finally {
      await engine.stop();
    }
  });
});
