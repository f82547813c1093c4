import { retrievalFixture } from './test-support/retrieval-fixture';

async function started(options = {}, configuration = {}) {
  const fixture = retrievalFixture(options, configuration);
  const engine = fixture.builder.build();
  await engine.start();
  const reindex = (query: Record<string, unknown> = {}) =>
    engine.operations.invoke('retrieval.reindex', { params: { collectionId: 'handbook' }, query });
  const ask = (body: Record<string, unknown>, collectionId = 'handbook') =>
    engine.operations.invoke('retrieval.query', { params: { collectionId }, body });
  return { ...fixture, engine, reindex, ask };
}

describe('knowledge indexing', () => {
  it('indexes a collection in full, then incrementally by updatedAt, removing vanished documents', async () => {
    const { engine, reindex, source, clock } = await started();
    const first = (await reindex({ runId: 'run-1', actorId: 'ops', correlationId: 'c-1' })).body as any;
    expect(first).toMatchObject({
      collectionId: 'handbook',
      runId: 'run-1',
      outcome: 'succeeded',
      trigger: 'route',
      providerId: 'in-process',
      mode: 'full',
      documentsSeen: 3,
      documentsIndexed: 3,
      documentsUnchanged: 0,
      documentsRemoved: 0,
      documentCount: 3,
      sourceFreshnessUtc: '2026-01-01T00:00:00.000Z',
      actorId: 'ops',
      correlationId: 'c-1',
      error: null,
    });
    source.documents = [
      {
        ...source.documents[0]!,
        text: { title: 'Background reindexing', body: 'now hourly' },
        updatedAt: '2026-02-01T00:00:00Z',
      },
      source.documents[1]!,
      { id: 'bad', text: {}, updatedAt: 'not a date' },
    ];
    clock.advance(1000);
    const second = (await reindex()).body as any;
    expect(second).toMatchObject({
      outcome: 'succeeded',
      mode: 'incremental',
      documentsSeen: 3,
      documentsIndexed: 1,
      documentsUnchanged: 1,
      documentsRemoved: 1,
      documentsRejected: 1,
      documentCount: 2,
      actorId: 'anonymous',
      sourceFreshnessUtc: '2026-02-01T00:00:00.000Z',
    });
    expect(second.runId).toMatch(/^reindex-/);
    expect(second.correlationId).toMatch(/^corr-/);
    const state = engine.catalog('knowledge-indexes')!.find('handbook') as any;
    expect(state).toMatchObject({
      latestRunId: second.runId,
      latestOutcome: 'succeeded',
      documentCount: 2,
      freshnessState: 'fresh',
      indexingCounts: { started: 2, succeeded: 2, failed: 0, documentsIndexed: 4, documentsRemoved: 1 },
    });
    expect(engine.snapshot().knowledgeIndexes).toHaveLength(1);
    await engine.stop();
  });

  it('answers already-running for an overlapping reindex and leaves the running one alone', async () => {
    const { reindex, source, engine } = await started();
    let release!: () => void;
    source.gate = new Promise((resolve) => (release = resolve));
    const running = reindex({ runId: 'long-run' });
    const overlapping = (await reindex({ runId: 'second' })).body as any;
    expect(overlapping).toMatchObject({
      outcome: 'already-running',
      runningRunId: 'long-run',
      runId: 'second',
    });
    release();
    expect(((await running).body as any).outcome).toBe('succeeded');
    const state = engine.catalog('knowledge-indexes')!.find('handbook') as any;
    expect(state.indexingCounts).toMatchObject({ started: 1, succeeded: 1, alreadyRunning: 1 });
    expect(source.reads).toBe(1);
    await engine.stop();
  });

  it('records a failed run with a summarised error and the failed freshness state', async () => {
    const { reindex, source, engine, logger } = await started();
    source.failWith = new Error('source unreachable at postgres://app:s3cret@db/docs');
    const result = (await reindex()).body as any;
    expect(result).toMatchObject({ outcome: 'failed', error: { code: 'RETRIEVAL_INDEXING_FAILED' } });
    expect(JSON.stringify(result)).not.toContain('s3cret');
    expect(engine.catalog('knowledge-indexes')!.find('handbook')).toMatchObject({ freshnessState: 'failed' });
    expect(logger.records.some((record) => record.eventId === 3262)).toBe(true);
    expect(
      engine
        .runtimeStory()
        .timeline.some((entry: any) => entry.kind === 'retrieval.indexing' && entry.transition === 'failed'),
    ).toBe(true);
    await engine.stop();
  });

  it('answers 404 for an unknown collection and not-active when ingestion is off', async () => {
    const on = await started();
    await expect(
      on.engine.operations.invoke('retrieval.reindex', { params: { collectionId: 'nope' } }),
    ).rejects.toMatchObject({ kind: 'not-found', code: 'RETRIEVAL_COLLECTION_NOT_FOUND' });
    expect(on.engine.catalog('knowledge-indexes')!.find('nope')).toBeUndefined();
    await on.engine.stop();
    const off = await started({ EnableIngestion: false });
    await expect(off.reindex()).rejects.toMatchObject({
      kind: 'not-active',
      code: 'RETRIEVAL_INDEXING_NOT_ACTIVE',
    });
    await off.engine.stop();
  });
});
