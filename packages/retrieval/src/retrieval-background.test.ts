import { backgroundReindexJobId } from './background-reindexing';
import { retrievalFixture } from './test-support/retrieval-fixture';

async function until(check: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !check(); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error('condition not reached');
}

describe('background reindexing', () => {
  it('runs on startup on the job scheduler and records the scheduler metadata through the same catalog', async () => {
    const fixture = retrievalFixture({
      EnableBackgroundReindexing: true,
      BackgroundReindexIntervalMilliseconds: 3_600_000,
      BackgroundReindexStartupDelayMilliseconds: 0,
    });
    const engine = fixture.builder.build();
    await engine.start();
    const catalog = engine.catalog('knowledge-indexes')!;
    await until(() => (catalog.find('handbook') as any)?.latestOutcome === 'succeeded');
    const state = catalog.find('handbook') as any;
    expect(state).toMatchObject({
      latestTrigger: 'retrieval-background-scheduler',
      actorId: 'retrieval-background-scheduler',
      documentCount: 3,
      metadata: {
        trigger: 'retrieval-background-scheduler',
        scheduler: 'engine-job-scheduler',
        schedulerJobId: backgroundReindexJobId,
        schedulerTrigger: 'startup',
        schedulerIteration: 1,
        collectionScope: 'all',
        startupRun: true,
        startupDelayMilliseconds: 0,
        intervalMilliseconds: 3_600_000,
      },
    });
    expect(state.metadata.schedulerIterationId).toMatch(new RegExp(`^${backgroundReindexJobId}:1:`));
    const job = engine.jobs().find((item) => item.id === backgroundReindexJobId)!;
    expect(job).toMatchObject({ owner: 'retrieval', intervalMs: 3_600_000, runOnStartup: true });
    const surface = engine.technologySurfaces().find((item) => item.id === 'knowledge-collection:handbook')!;
    expect(surface.metadata).toMatchObject({
      backgroundReindexingEnabled: true,
      backgroundReindexingScheduled: true,
      backgroundReindexingOwnership: 'core-managed',
      backgroundReindexingCollectionScope: 'all',
      backgroundReindexingStartupRun: true,
      backgroundReindexingIntervalMilliseconds: 3_600_000,
      configuredCollectionCount: 1,
      latestIndexOutcome: 'succeeded',
      queryOwnership: 'core-managed',
    });
    expect(
      engine.operations.list().filter((operation) => operation.path.startsWith('/engine/knowledge-indexes')),
    ).toHaveLength(2);
    await engine.stop();
  });

  it('is not registered when ingestion is off, and a listed scope narrows it', async () => {
    const off = retrievalFixture({ EnableBackgroundReindexing: true, EnableIngestion: false });
    const engine = off.builder.build();
    await engine.start();
    expect(engine.jobs().some((item) => item.id === backgroundReindexJobId)).toBe(false);
    const surface = engine.technologySurfaces().find((item) => item.id === 'knowledge-collection:handbook')!;
    expect(surface.metadata).toMatchObject({
      backgroundReindexingEnabled: false,
      backgroundReindexingScheduled: false,
      backgroundReindexingOwnership: 'not-configured',
      indexingOwnership: 'not-configured',
    });
    await engine.stop();
    const listed = retrievalFixture({
      EnableBackgroundReindexing: true,
      BackgroundReindexCollectionIds: ['missing'],
    });
    expect(() => listed.builder.build()).toThrow(/BackgroundReindexCollectionIds names "missing"/);
  });
});
