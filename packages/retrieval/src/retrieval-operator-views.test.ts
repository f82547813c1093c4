import { retrievalFixture } from './test-support/retrieval-fixture';

describe('retrieval operator view', () => {
  it('declares knowledge-index-freshness: failed, then fresh (gone), then stale after StaleAfterMinutes, with Reindex', async () => {
    const { builder, source, clock } = retrievalFixture({ StaleAfterMinutes: 10 });
    const engine = builder.build();
    await engine.start();
    const view = engine.operatorViews().find((candidate) => candidate.id === 'knowledge-index-freshness')!;
    expect(view).toMatchObject({
      listPath: '/engine/knowledge-indexes',
      idField: 'collectionId',
      entryPath: '/engine/knowledge-indexes/{collectionId}',
      actions: [
        { operationId: 'retrieval.reindex', label: 'Reindex', params: { collectionId: 'collectionId' } },
      ],
    });
    expect(view.description).toContain('10 min (Engine:Retrieval:StaleAfterMinutes)');
    const rows = async () =>
      (await view.rows()).map((row) => [
        (row as { collectionId: string }).collectionId,
        ...view.columns.slice(0, 1).map((column) => column.value(row)),
      ]);
    const reindex = () =>
      engine.operations.invoke('retrieval.reindex', { params: { collectionId: 'handbook' }, query: {} });
    expect(await rows()).toEqual([]);

    source.failWith = new Error('source unreachable');
    await reindex();
    expect(await rows()).toEqual([['handbook', 'failed']]);

    source.failWith = null;
    await reindex();
    expect(await rows()).toEqual([]);

    clock.advance(10 * 60_000 + 1);
    expect(await rows()).toEqual([['handbook', 'stale']]);
    // The action is the pack's own reindex operation, resolved by the engine.
    expect(engine.operations.find('retrieval.reindex')?.path).toBe(
      '/engine/knowledge-indexes/:collectionId/reindex',
    );
    await engine.stop();
  });
});
