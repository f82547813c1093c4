import { addRetrieval } from './add-retrieval';
import { retrievalFixture } from './test-support/retrieval-fixture';

describe('addRetrieval registration', () => {
  it('refuses a second call, unknown keys, and collections of unregistered modules', () => {
    const fixture = retrievalFixture();
    expect(() => addRetrieval(fixture.builder)).toThrow(/already called/);
    const misspelled = retrievalFixture({ EnableIngestoin: true } as never);
    expect(() => misspelled.builder.configuration.assertKnownKeys()).toThrow(
      /Engine:Retrieval:EnableIngestoin\b[\s\S]*EnableIngestion/,
    );
    expect(() => retrievalFixture({ MaxResultsLimit: 0 })).toThrow();
    const orphan = retrievalFixture();
    orphan.retrieval.addCollection('ghost', { id: 'ghosts', fields: ['body'], source: () => [] });
    expect(() =>
      orphan.retrieval.addCollection('handbook', { id: 'handbook', fields: ['body'], source: () => [] }),
    ).toThrow(/registered twice/);
    expect(() => orphan.builder.build()).toThrow(/module "ghost", which is not registered/);
  });

  it('reports awaiting-provider and answers not-active when the selected provider is not installed', async () => {
    const fixture = retrievalFixture({ Provider: 'postgresql' });
    const engine = fixture.builder.build();
    await engine.start();
    const surface = engine.technologySurfaces().find((item) => item.id === 'knowledge-collection:handbook')!;
    expect(surface.metadata).toMatchObject({
      indexingOwnership: 'awaiting-provider',
      queryOwnership: 'awaiting-provider',
      runtimeState: 'awaiting-provider',
      providerId: 'postgresql',
    });
    await expect(fixture.retrieval.reindex('handbook')).rejects.toMatchObject({
      kind: 'not-active',
      code: 'RETRIEVAL_PROVIDER_MISSING',
    });
    await expect(fixture.retrieval.query('handbook', { queryText: 'x' })).rejects.toMatchObject({
      kind: 'not-active',
    });
    expect(fixture.logger.records.some((record) => record.eventId === 3269)).toBe(true);
    await engine.stop();
  });

  it('lists its event ids and every 2.5 key on the collection surface', async () => {
    const fixture = retrievalFixture();
    const engine = fixture.builder.build();
    await engine.start();
    const metadata = engine
      .technologySurfaces()
      .find((item) => item.id === 'knowledge-collection:handbook')!.metadata;
    for (const key of [
      'indexingOwnership',
      'queryOwnership',
      'runtimeState',
      'freshnessState',
      'documentCount',
      'queryCount',
      'latestIndexOutcome',
      'latestQueryMatchedCount',
      'backgroundReindexingEnabled',
      'backgroundReindexingScheduled',
      'backgroundReindexingOwnership',
      'backgroundReindexingCollectionScope',
      'configuredCollectionCount',
      'backgroundReindexingStartupRun',
      'backgroundReindexingStartupDelayMilliseconds',
      'backgroundReindexingIntervalMilliseconds',
    ]) {
      expect(metadata).toHaveProperty([key]);
    }
    expect(metadata).toMatchObject({ runtimeState: 'awaiting-index', freshnessState: 'unindexed' });
    expect(JSON.stringify(engine.diagnostics())).toContain('knowledge-indexing-started');
    await engine.stop();
  });
});
