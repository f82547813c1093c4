import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addRetrievalDemo, demoDocsDirectory } from './retrieval-demo';

it('the retrieval demo indexes the repository docs at startup so they can be queried at once', async () => {
  const builder = createEngineBuilder({
    environment: {},
    contentRoot: __dirname,
    logger: createMemoryLogger(),
  });
  const retrieval = addRetrievalDemo(builder);
  expect(demoDocsDirectory.endsWith('/docs')).toBe(true);
  const engine = builder.build();
  await engine.start();
  try {
    const catalog = engine.catalog('knowledge-indexes')!;
    for (
      let attempt = 0;
      attempt < 300 && (catalog.find('docs') as any)?.latestOutcome !== 'succeeded';
      attempt += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(catalog.find('docs')).toMatchObject({
      latestOutcome: 'succeeded',
      latestTrigger: 'retrieval-background-scheduler',
    });
    expect((catalog.find('docs') as any).documentCount).toBeGreaterThan(5);
    const answer = await engine.operations.invoke('retrieval.query', {
      params: { collectionId: 'docs' },
      body: { queryText: 'catalog', maxResults: 3 },
    });
    const result = answer.body as any;
    expect(result.matchedCount).toBeGreaterThan(0);
    expect(result.matches[0].metadata.path).toMatch(/^docs\/.+\.md$/);
    expect(JSON.stringify(result.matches[0].highlights)).toContain('<mark>');
    expect(retrieval.collections().map((collection) => collection.id)).toEqual(['docs']);
  } finally {
    await engine.stop();
  }
});
