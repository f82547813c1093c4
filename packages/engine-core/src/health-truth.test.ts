import { trace, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { DependencyCheckResult, DependencyHealthContributor } from '@corekit/abstractions';
import { manualClock, type Clock } from './clock';
import { DependencyHealthScheduler, type SchedulerHooks } from './dependency-health-scheduler';
import { spanNames } from './diagnostics';
import { livenessVerdict, type LifecycleFacts } from './health-aggregator';
import { createMemoryLogger } from './logger';
import { addSampleCatalogs } from './testing-support/sample-catalogs';
import { testBuilder } from './testing-support/engine-fixtures';

const defaults = { refreshIntervalSeconds: 30, timeoutSeconds: 5, staleAfterIntervals: 3 };

function schedulerFor(contributors: DependencyHealthContributor[], clock: Clock) {
  const logger = createMemoryLogger();
  const changes: string[] = [];
  const runs: Array<[string, string, number]> = [];
  const hooks: SchedulerHooks = {
    redact: (value) => value,
    onStatusChange: (entry, previous) => void changes.push(`${previous ?? 'none'}->${entry.status}`),
    onRun: (contributor, outcome, durationMs) => void runs.push([contributor.id, outcome, durationMs]),
  };
  const scheduler = new DependencyHealthScheduler(contributors, clock, logger, defaults, hooks);
  return { scheduler, logger, changes, runs };
}

function contributor(
  check: (signal: AbortSignal) => Promise<DependencyCheckResult>,
  overrides: Partial<DependencyHealthContributor> = {},
): DependencyHealthContributor & { runs: number } {
  const counted: DependencyHealthContributor & { runs: number } = {
    id: 'orders-db',
    displayName: 'Orders DB',
    kind: 'PostgreSql',
    required: true,
    refreshIntervalSeconds: 1,
    timeoutSeconds: 5,
    runs: 0,
    ...overrides,
    check: (signal) => {
      counted.runs++;
      return check(signal);
    },
  };
  return counted;
}

describe('staleness: a dependency whose checks complete within their timeout', () => {
  afterEach(() => jest.useRealTimers());

  it('stays Healthy and ready for 30 s when every check takes 4 s, interval 1 s, timeout 5 s', async () => {
    jest.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') });
    // The fake timers move Date.now(), so this clock and the scheduler's timers advance together.
    const clock: Clock = { now: () => Date.now() };
    const slow = contributor(
      () => new Promise((resolve) => setTimeout(() => resolve({ status: 'Healthy' }), 4000)),
    );
    const { builder } = testBuilder({ clock });
    const engine = builder.addDependencyHealthContributor(slow).build();
    const started = engine.start();
    await jest.advanceTimersByTimeAsync(4000);
    await started;

    let oldest = 0;
    const statuses = new Set<string>();
    for (let step = 0; step < 300; step++) {
      await jest.advanceTimersByTimeAsync(100);
      const [entry] = engine.dependencies();
      oldest = Math.max(oldest, clock.now() - Date.parse(entry.checkedAtUtc!));
      statuses.add(`${entry.status}/${entry.stale}/${engine.readiness().status}/${engine.liveness().status}`);
    }
    expect([...statuses]).toEqual(['Healthy/false/Healthy/Healthy']);
    // The old rule (stale after 3 intervals = 3 s) would have fired: results really were this old.
    expect(oldest).toBeGreaterThan(3000);
    // One run every 5 s (4 s check + 1 s interval): the checks kept running the whole time.
    expect(slow.runs).toBeGreaterThanOrEqual(6);
    await engine.stop();
  });
});

describe('staleness: no check completed within interval + timeout + 1 s', () => {
  it('marks the result stale exactly past the threshold, logs 3004 once and publishes the change', async () => {
    const clock = manualClock();
    const healthy = contributor(async () => ({ status: 'Healthy' }), {
      refreshIntervalSeconds: 1,
      timeoutSeconds: 5,
    });
    const { scheduler, logger, changes } = schedulerFor([healthy], clock);
    await scheduler.start();
    scheduler.stop(); // no further runs: the result can only age
    clock.advance(7000); // max(1 + 5 + 1 s, 3 intervals)
    expect(scheduler.entries()[0]).toMatchObject({ status: 'Healthy', stale: false });
    clock.advance(1);
    for (let read = 0; read < 5; read++) {
      expect(scheduler.entries()[0]).toMatchObject({ status: 'Unhealthy', stale: true });
    }
    expect(scheduler.entries()[0].description).toContain('within 7 s');
    await Promise.resolve();
    expect(logger.records.filter((record) => record.eventId === 3004)).toHaveLength(1);
    expect(changes).toEqual(['none->Healthy', 'Healthy->Unhealthy']);

    await scheduler.refreshAll();
    expect(scheduler.entries()[0]).toMatchObject({ status: 'Healthy', stale: false });
    clock.advance(7001);
    scheduler.entries();
    expect(logger.records.filter((record) => record.eventId === 3004)).toHaveLength(2);
  });

  it('keeps StaleAfterIntervals as a floor: interval 10 s, timeout 1 s is stale after 30 s, not 12 s', async () => {
    const clock = manualClock();
    const { scheduler } = schedulerFor(
      [contributor(async () => ({ status: 'Healthy' }), { refreshIntervalSeconds: 10, timeoutSeconds: 1 })],
      clock,
    );
    await scheduler.refreshAll();
    clock.advance(30_000);
    expect(scheduler.entries()[0].stale).toBe(false);
    clock.advance(1);
    expect(scheduler.entries()[0].stale).toBe(true);
  });
});

describe('dependency results', () => {
  it('keeps data.target on a timed-out run, from the last result or from the contributor', async () => {
    let hang = false;
    const flaky = contributor(
      () =>
        hang
          ? new Promise(() => undefined)
          : Promise.resolve({ status: 'Healthy', data: { target: 'db:5432/orders', rowCount: 1 } }),
      { timeoutSeconds: 0.05 },
    );
    const declared = Object.assign(
      contributor(() => new Promise(() => undefined), { id: 'reports', timeoutSeconds: 0.05 }),
      { target: 'reports:5432/reports' },
    );
    const { scheduler } = schedulerFor([flaky, declared], manualClock());
    await scheduler.refreshAll();
    hang = true;
    await new Promise((resolve) => setImmediate(resolve));
    await scheduler.refreshAll();
    const [first, second] = scheduler.entries();
    expect(first).toMatchObject({ timedOut: true, data: { target: 'db:5432/orders' } });
    expect(first.data).not.toHaveProperty('rowCount');
    expect(second).toMatchObject({ timedOut: true, data: { target: 'reports:5432/reports' } });
  });

  it('logs 3002 when a check throws or answers something that is not a result, not when it is Unhealthy', async () => {
    const throws = contributor(
      async () => {
        throw Object.assign(new Error('socket closed'), { code: 'ECONNRESET' });
      },
      { id: 'throws' },
    );
    const invalid = contributor(async () => ({ status: 'UP' }) as never, { id: 'invalid' });
    const unhealthy = contributor(async () => ({ status: 'Unhealthy' }), { id: 'unhealthy' });
    const { scheduler, logger, runs } = schedulerFor([throws, invalid, unhealthy], manualClock());
    await scheduler.refreshAll();
    expect(runs).toEqual([
      ['throws', 'failed', expect.any(Number)],
      ['invalid', 'failed', expect.any(Number)],
      ['unhealthy', 'failed', expect.any(Number)],
    ]);
    const failed = logger.records.filter((record) => record.eventId === 3002);
    expect(failed.map((record) => [record.dependencyId, record.errorCode])).toEqual([
      ['throws', 'ECONNRESET'],
      ['invalid', 'DEPENDENCY_RESULT_INVALID'],
    ]);
  });

  it('records one span per run under the engine activity source, marked as an error when Unhealthy', async () => {
    const spans: Array<{
      name: string;
      attributes: Record<string, unknown>;
      status?: number;
      ended: boolean;
    }> = [];
    const tracerNames: string[] = [];
    const tracer = {
      startSpan(name: string, options: { attributes?: Record<string, unknown> } = {}) {
        const record = {
          name,
          attributes: { ...options.attributes },
          status: undefined as number | undefined,
          ended: false,
        };
        spans.push(record);
        const span = {
          setAttributes: (attributes: Record<string, unknown>) => (
            Object.assign(record.attributes, attributes),
            span
          ),
          setStatus: (status: { code: number }) => ((record.status = status.code), span),
          recordException: () => undefined,
          end: () => void (record.ended = true),
          spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 }),
          isRecording: () => true,
        };
        return span as unknown as Span;
      },
    } as unknown as Tracer;
    const provider: TracerProvider = {
      getTracer: (name: string) => (tracerNames.push(name), tracer),
    };
    trace.setGlobalTracerProvider(provider);
    try {
      const ok = contributor(async () => ({ status: 'Healthy' }), { id: 'ok' });
      const down = contributor(async () => ({ status: 'Unhealthy' }), { id: 'down' });
      const { scheduler } = schedulerFor([ok, down], manualClock());
      await scheduler.refreshAll();
    } finally {
      trace.disable();
    }
    expect(new Set(tracerNames)).toEqual(new Set(['corekit.engine']));
    expect(
      spans.map((span) => [span.name, span.attributes['corekit.dependency.id'], span.status, span.ended]),
    ).toEqual([
      [spanNames.dependencyCheck, 'ok', undefined, true],
      [spanNames.dependencyCheck, 'down', 2, true],
    ]);
    expect(spans[1].attributes).toMatchObject({
      'corekit.dependency.kind': 'PostgreSql',
      'corekit.dependency.status': 'Unhealthy',
      'corekit.dependency.outcome': 'failed',
    });
  });
});

describe('liveness during startup', () => {
  const facts = (overrides: Partial<LifecycleFacts>): LifecycleFacts => ({
    state: 'Starting',
    now: 0,
    startedAt: null,
    shutdownStartedAt: null,
    failedAt: null,
    restartCount: 0,
    lastFailure: null,
    policy: { StartupReadinessDelay: 0, ShutdownLivenessGracePeriod: 30_000, ManualRestartBackoff: 10_000 },
    dependencies: [],
    ...overrides,
  });

  it('is Healthy while a dependency has not been checked yet, and Degraded once it reports Unhealthy', async () => {
    let release: (result: DependencyCheckResult) => void = () => undefined;
    const pending = contributor(() => new Promise((resolve) => (release = resolve)), { timeoutSeconds: 60 });
    const { scheduler } = schedulerFor([pending], manualClock());
    const started = scheduler.start();
    await new Promise((resolve) => setImmediate(resolve));
    const unchecked = scheduler.entries();
    expect(unchecked[0]).toMatchObject({ status: 'Unhealthy', checkedAtUtc: null });
    expect(livenessVerdict(facts({ dependencies: unchecked })).status).toBe('Healthy');

    release({ status: 'Unhealthy' });
    await started;
    scheduler.stop();
    expect(livenessVerdict(facts({ dependencies: scheduler.entries() })).status).toBe('Degraded');
  });

  it('answers Healthy from the engine while startup waits for the first check', async () => {
    let release: (result: DependencyCheckResult) => void = () => undefined;
    const pending = contributor(() => new Promise((resolve) => (release = resolve)), { timeoutSeconds: 60 });
    const { builder } = testBuilder();
    const engine = builder.addDependencyHealthContributor(pending).build();
    const started = engine.start();
    await new Promise((resolve) => setImmediate(resolve));
    expect(engine.dependencies()[0].checkedAtUtc).toBeNull();
    expect(engine.liveness().status).toBe('Healthy');
    expect(engine.readiness().status).toBe('Unhealthy');
    release({ status: 'Healthy' });
    await started;
    await engine.stop();
  });
});

describe('hosted executions', () => {
  it('reports one that starts with the host but has no runner as declared-only, never active', async () => {
    const { builder } = testBuilder();
    addSampleCatalogs(builder);
    const engine = builder.build();
    await engine.start();
    const pump = () => engine.runtimeStory().executions.find((item) => item.id === 'order-pump')!;
    expect(pump()).toMatchObject({ state: 'declared-only', activeAtUtc: null });
    await engine.stop();
    expect(pump()).toMatchObject({ state: 'declared-only', activeAtUtc: null, deactivatedAtUtc: null });
    const transitions = engine
      .runtimeStory()
      .timeline.filter((entry) => entry.subjectId === 'order-pump')
      .map((entry) => entry.transition);
    expect(transitions).toEqual(['loaded', 'declared-only']);
  });
});
