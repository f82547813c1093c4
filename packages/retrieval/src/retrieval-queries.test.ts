import { retrievalFixture } from './test-support/retrieval-fixture';

async function indexed(options = {}) {
  const fixture = retrievalFixture(options);
  const engine = fixture.builder.build();
  await engine.start();
  const ask = (body: Record<string, unknown>, collectionId = 'handbook') =>
    engine.operations.invoke('retrieval.query', { params: { collectionId }, body });
  return { ...fixture, engine, ask };
}

describe('knowledge queries', () => {
  it('ranks matches with scores and highlights and keeps only a fingerprint and length', async () => {
    const { engine, ask, retrieval } = await indexed();
    await retrieval.reindex('handbook');
    const result = (await ask({ queryText: 'reindexing scheduler', actorId: 'reader', correlationId: 'q-1' }))
      .body as any;
    expect(result).toMatchObject({
      collectionId: 'handbook',
      providerId: 'in-process',
      maxResults: 10,
      matchedCount: 1,
      totalMatches: 1,
      queryLength: 'reindexing scheduler'.length,
      actorId: 'reader',
      correlationId: 'q-1',
    });
    expect(result.queryFingerprint).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(result.matches[0]).toMatchObject({
      rank: 1,
      documentId: 'reindexing',
      metadata: { section: 'operations', pages: 3 },
      updatedAtUtc: '2026-01-01T00:00:00.000Z',
    });
    expect(result.matches[0].score).toBeGreaterThan(0);
    expect(result.matches[0].highlights).toEqual([
      { field: 'title', snippet: 'Background <mark>reindexing</mark>' },
      {
        field: 'body',
        snippet: 'The <mark>scheduler</mark> reindexes every collection after the startup delay.',
      },
    ]);
    const ranked = (await ask({ queryText: 'matches', maxResults: 5 })).body as any;
    expect(ranked.matches.map((match: any) => match.documentId).sort()).toEqual(['providers', 'queries']);
    expect(ranked.matches[0].score).toBeGreaterThanOrEqual(ranked.matches[1].score);
    const state = engine.catalog('knowledge-indexes')!.find('handbook') as any;
    expect(state).toMatchObject({
      queryCount: 2,
      queryLength: 7,
      queryFingerprint: ranked.queryFingerprint,
      matchedCounts: { latest: 2, latestTotal: 2, total: 3, zeroMatchQueries: 0 },
    });
    expect(JSON.stringify(engine.snapshot())).not.toContain('reindexing scheduler');
    await engine.stop();
  });

  it('answers 400 for empty text or maxResults out of bounds, 404 for unknown collections or querying off', async () => {
    const { engine, ask } = await indexed({ MaxResultsLimit: 50 });
    await expect(ask({ queryText: '   ' })).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'RETRIEVAL_QUERY_TEXT_EMPTY',
    });
    await expect(ask({ queryText: 'x', maxResults: 0 })).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'RETRIEVAL_MAX_RESULTS_OUT_OF_BOUNDS',
    });
    await expect(ask({ queryText: 'x', maxResults: 51 })).rejects.toMatchObject({ kind: 'invalid-input' });
    await expect(ask({ queryText: 'x'.repeat(1001) })).rejects.toMatchObject({
      code: 'RETRIEVAL_QUERY_TEXT_TOO_LONG',
    });
    await expect(ask({ queryText: 'x', extra: 1 })).rejects.toMatchObject({ kind: 'invalid-input' });
    await expect(ask({ queryText: 'x' }, 'nope')).rejects.toMatchObject({
      kind: 'not-found',
      code: 'RETRIEVAL_COLLECTION_NOT_FOUND',
    });
    expect(engine.catalog('knowledge-indexes')!.entries()).toEqual([]);
    await engine.stop();
    const off = await indexed({ EnableQuerying: false });
    await expect(off.ask({ queryText: 'x' })).rejects.toMatchObject({
      kind: 'not-active',
      code: 'RETRIEVAL_QUERYING_NOT_ACTIVE',
    });
    await off.engine.stop();
  });

  it('answers an empty result before the first indexing run and reports awaiting-index', async () => {
    const { engine, ask } = await indexed();
    const surface = () =>
      engine.technologySurfaces().find((item) => item.id === 'knowledge-collection:handbook')!;
    expect(surface().metadata).toMatchObject({
      queryOwnership: 'awaiting-index',
      indexingOwnership: 'core-managed',
    });
    const result = (await ask({ queryText: 'reindexing' })).body as any;
    expect(result).toMatchObject({ matchedCount: 0, matches: [] });
    expect(engine.catalog('knowledge-indexes')!.find('handbook')).toMatchObject({
      freshnessState: 'unindexed',
      matchedCounts: { zeroMatchQueries: 1 },
    });
    await engine.stop();
  });
});
