import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { retrievalFixture } from './test-support/retrieval-fixture';

const engines: Array<{ stop(): Promise<void> }> = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function started(configuration: Record<string, unknown> = {}) {
  const fixture = retrievalFixture({}, configuration);
  const engine = fixture.builder.build();
  await engine.start();
  engines.push(engine);
  const surface = () =>
    engine.technologySurfaces().find((entry) => entry.id === 'knowledge-collection:handbook')!.metadata;
  const matches = async () =>
    ((await fixture.retrieval.query('handbook', { queryText: 'reindexing' })).matchedCount as number) ?? 0;
  return { ...fixture, engine, surface, matches };
}

describe('retrieval surfaces across the engine lifecycle', () => {
  it('after engine.restart() the in-process index is empty and the surfaces say so (not ready, not fresh, 0 documents)', async () => {
    const { engine, retrieval, surface, matches } = await started();
    await retrieval.reindex('handbook');
    expect(await matches()).toBeGreaterThan(0);
    expect(surface()).toMatchObject({ runtimeState: 'ready', freshnessState: 'fresh', documentCount: 3 });
    await engine.restart();
    expect(await matches()).toBe(0);
    expect(surface()).toMatchObject({
      runtimeState: 'awaiting-index',
      queryOwnership: 'awaiting-index',
      freshnessState: 'unindexed',
      documentCount: 0,
    });
    expect(engine.catalog('knowledge-indexes')!.find('handbook')).toMatchObject({
      documentCount: 0,
      freshnessState: 'unindexed',
    });
    // A reindex rebuilds it in full; then the surface and the query agree again.
    const rebuilt = await retrieval.reindex('handbook');
    expect(rebuilt).toMatchObject({ outcome: 'succeeded', mode: 'full', documentCount: 3 });
    expect(await matches()).toBeGreaterThan(0);
    expect(surface()).toMatchObject({ runtimeState: 'ready', freshnessState: 'fresh', documentCount: 3 });
  });

  it('a new process on the File store restores history but not an index the provider no longer holds', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'retrieval-restart-'));
    folders.push(directory);
    const stores = { Engine: { Stores: { Provider: 'File', Directory: directory } } };
    const first = await started(stores);
    await first.retrieval.reindex('handbook');
    await first.engine.stop();
    const second = await started(stores);
    expect(await second.matches()).toBe(0);
    expect(second.surface()).toMatchObject({
      runtimeState: 'awaiting-index',
      freshnessState: 'unindexed',
      documentCount: 0,
    });
    // The history of runs survives: it is what happened, not what the index holds.
    expect(second.engine.catalog('knowledge-indexes')!.find('handbook')).toMatchObject({
      indexingCounts: { succeeded: 1 },
      documentCount: 0,
    });
  });
});
