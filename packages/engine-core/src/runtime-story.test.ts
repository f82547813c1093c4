import { metrics, type Meter, type MeterProvider } from '@opentelemetry/api';
import { diagnosticsDocumentSchema } from '@corekit/abstractions';
import { manualClock } from './clock';
import { createMemoryLogger } from './logger';
import { RuntimeStory } from './runtime-story';
import { testBuilder, failingModule } from './testing-support/engine-fixtures';

describe('runtime story', () => {
  it('records module and runtime transitions in order with timestamps', async () => {
    const { builder, clock } = testBuilder();
    builder.addModule({ id: 'orders', version: '1.2.0', capabilities: ['orders.read'] });
    builder.addModule({ id: 'billing', version: '0.3.0' });
    const engine = builder.build();
    clock.advance(1000);
    await engine.start();
    clock.advance(1000);
    await engine.stop();

    const story = engine.runtimeStory();
    const timeline = story.timeline.map(
      (entry) => `${entry.kind}:${entry.subjectId ?? '-'}:${entry.transition}`,
    );
    expect(timeline).toEqual([
      'module:orders:loaded',
      'module:billing:loaded',
      'runtime:-:starting',
      'module:orders:initialized',
      'module:billing:initialized',
      'module:orders:started',
      'module:billing:started',
      'runtime:-:started',
      'runtime:-:stopping',
      'module:billing:stopped',
      'module:orders:stopped',
      'runtime:-:stopped',
    ]);
    const sequences = story.timeline.map((entry) => entry.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    const orders = story.modules.find((module) => module.moduleId === 'orders')!;
    expect(orders).toMatchObject({ version: '1.2.0', state: 'stopped' });
    expect(Date.parse(orders.loadedAtUtc!)).toBeLessThan(Date.parse(orders.startedAtUtc!));
    expect(Date.parse(orders.startedAtUtc!)).toBeLessThan(Date.parse(orders.stoppedAtUtc!));
  });

  it('records failures and restart attempts with their context', async () => {
    const { builder, clock } = testBuilder({
      configuration: { Engine: { FailurePolicy: { ManualRestartBackoff: '1s' } } },
    });
    builder.addModule(failingModule('broken', 'cannot open file'));
    const engine = builder.build();
    await engine.start().catch(() => undefined);
    clock.advance(1000);
    await engine.restart().catch(() => undefined);
    const kinds = engine.runtimeStory().timeline.map((entry) => `${entry.kind}:${entry.transition}`);
    expect(kinds.filter((kind) => kind.startsWith('failure') || kind.startsWith('restart'))).toEqual([
      'failure:failed',
      'restart:requested',
      'failure:failed',
    ]);
    const failure = engine.runtimeStory().timeline.find((entry) => entry.kind === 'failure')!;
    expect(failure.message).toContain('cannot open file');
    expect(engine.runtimeStory()).toMatchObject({
      status: 'Failed',
      restartCount: 1,
      lastFailure: { moduleId: 'broken' },
    });
  });

  it('is bounded by Engine:RuntimeStory:MaxEntries, dropping the oldest entries', async () => {
    const { builder } = testBuilder({ configuration: { Engine: { RuntimeStory: { MaxEntries: 5 } } } });
    for (let index = 0; index < 4; index++) builder.addModule({ id: `m${index}`, version: '1.0.0' });
    const engine = builder.build();
    await engine.start();
    const story = engine.runtimeStory();
    expect(story.timeline).toHaveLength(5);
    expect(story.maxEntries).toBe(5);
    expect(story.droppedEntries).toBeGreaterThan(0);
    expect(story.timeline[story.timeline.length - 1]).toMatchObject({
      kind: 'runtime',
      transition: 'started',
    });
    await engine.stop();
  });

  it('logs 3006 on the first drop, then once per dropLogEvery drops (default: maxEntries)', () => {
    const entry = { kind: 'runtime', subjectId: null, transition: 'tick', message: 'tick' } as const;
    const logger = createMemoryLogger();
    const story = new RuntimeStory(manualClock(), 3, undefined, { logger, dropLogEvery: 5 });
    for (let index = 0; index < 20; index++) story.record(entry);
    expect(story.droppedEntries).toBe(17);
    const truncated = logger.records.filter((record) => record.eventId === 3006);
    expect(truncated.map((record) => record.droppedEntries)).toEqual([1, 5, 10, 15]);
    expect(truncated.map((record) => record.level)).toEqual(['warn', 'info', 'info', 'info']);
    expect(truncated[0]).toMatchObject({ maxEntries: 3, category: 'runtime-story' });

    const byDefault = createMemoryLogger();
    const bounded = new RuntimeStory(manualClock(), 3, undefined, { logger: byDefault });
    for (let index = 0; index < 20; index++) bounded.record(entry);
    expect(byDefault.records.map((record) => record.droppedEntries)).toEqual([1, 3, 6, 9, 12, 15]);

    const quiet = new RuntimeStory(manualClock(), 3);
    for (let index = 0; index < 5; index++) quiet.record(entry);
    expect(quiet.droppedEntries).toBe(2);
  });

  it('publishes each entry to subscribers as it happens', async () => {
    const { builder } = testBuilder();
    const engine = builder.build();
    const seen: string[] = [];
    const unsubscribe = engine.subscribe((event) => {
      if (event.type === 'runtime-story') seen.push(event.entry.transition);
    });
    await engine.start();
    unsubscribe();
    await engine.stop();
    expect(seen).toEqual(['starting', 'started']);
  });
});

describe('diagnostics', () => {
  const recorded: Array<{ name: string; attributes: Record<string, unknown> }> = [];
  beforeAll(() => {
    const meter = {
      createCounter: (name: string) => ({
        add: (_value: number, attributes: Record<string, unknown> = {}) =>
          recorded.push({ name, attributes }),
      }),
      createHistogram: (name: string) => ({
        record: (_value: number, attributes: Record<string, unknown> = {}) =>
          recorded.push({ name, attributes }),
      }),
    } as unknown as Meter;
    const provider: MeterProvider = { getMeter: () => meter };
    metrics.setGlobalMeterProvider(provider);
  });
  afterAll(() => metrics.disable());

  it('records runtime, module, failure and restart counters through @opentelemetry/api', async () => {
    const { builder, clock } = testBuilder({
      configuration: { Engine: { FailurePolicy: { ManualRestartBackoff: '1s' } } },
    });
    builder.addModule(failingModule('broken'));
    const engine = builder.build();
    await engine.start().catch(() => undefined);
    clock.advance(1000);
    await engine.restart().catch(() => undefined);
    const names = new Set(recorded.map((entry) => entry.name));
    for (const name of [
      'corekit.engine.runtime.transitions',
      'corekit.engine.module.transitions',
      'corekit.engine.failures',
      'corekit.engine.restarts',
    ]) {
      expect(names).toContain(name);
    }
  });

  it("lists every instrument, the engine's and the packs', in one shape: name → kind, description, unit", async () => {
    const { builder } = testBuilder();
    builder.meter.counter('corekit.example.widgets', 'widgets made, by color');
    builder.meter.histogram('corekit.example.widget_time', 'time to make one widget', 'ms');
    const engine = builder.build();
    const { counters } = engine.diagnostics();
    expect(counters['corekit.engine.runtime.transitions']).toEqual({
      kind: 'counter',
      description: 'runtime state transitions, by target state',
    });
    expect(counters['corekit.dependency.check.duration']).toEqual({
      kind: 'histogram',
      description: expect.stringContaining('dependency-health check'),
      unit: 'ms',
    });
    expect(counters['corekit.example.widgets']).toEqual({
      kind: 'counter',
      description: 'widgets made, by color',
    });
    expect(counters['corekit.example.widget_time']).toEqual({
      kind: 'histogram',
      description: 'time to make one widget',
      unit: 'ms',
    });
    for (const [name, instrument] of Object.entries(counters)) {
      expect(name).toMatch(/^corekit\./);
      expect(diagnosticsDocumentSchema.shape.counters.parse({ [name]: instrument })).toEqual({
        [name]: instrument,
      });
    }
  });

  it('publishes meter, activity source, counters, the full event-id catalog and health', async () => {
    const { builder } = testBuilder();
    const engine = builder.build();
    await engine.start();
    const document = engine.diagnostics(['/health', '/health/live', '/health/ready']);
    expect(document.meterName).toBe('corekit.engine');
    expect(document.activitySourceName).toBe('corekit.engine');
    expect(Object.keys(document.counters)).toEqual(
      expect.arrayContaining([
        'corekit.engine.execution_graph.transitions',
        'corekit.engine.hosted_execution.transitions',
      ]),
    );
    const components = document.eventIds.map((range) => range.component);
    expect(components).toEqual(
      expect.arrayContaining(['Engine core', 'Observability core', 'Probe: columnar analytics database']),
    );
    expect(document.eventIds).toHaveLength(30);
    expect(document.healthRoutes).toEqual(['/health', '/health/live', '/health/ready']);
    expect(document.readiness.status).toBe('Healthy');
    await engine.stop();
  });

  it('carries an event id on every structured log record', async () => {
    const { builder, logger } = testBuilder();
    builder.addModule(failingModule('broken'));
    const engine = builder.build();
    await engine.start().catch(() => undefined);
    expect(logger.records.length).toBeGreaterThan(0);
    expect(logger.records.every((record) => Number.isInteger(record.eventId))).toBe(true);
    expect(logger.records.map((record) => record.eventId)).toEqual([2000, 3005, 2002]);
  });
});

describe('runtime events', () => {
  it('publishes the first health change after a subscriber joins', async () => {
    const { builder } = testBuilder();
    const engine = builder.build();
    await engine.start();
    const changes: string[] = [];
    engine.subscribe((event) => {
      if (event.type === 'health-changed') changes.push(`${event.probe}:${event.previous}->${event.status}`);
    });
    engine.beginShutdown();
    expect(changes).toEqual(['readiness:Healthy->Unhealthy']);
    await engine.stop();
    expect(changes).toEqual(['readiness:Healthy->Unhealthy', 'liveness:Healthy->Unhealthy']);
  });
});
