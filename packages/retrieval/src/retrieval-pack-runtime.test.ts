import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { createInProcessIndexProvider } from './in-process-provider';
import type { KnowledgeIndexProvider } from './index-provider';
import {
  retrievalOptionsSchema,
  retrievalSectionPath,
  type RetrievalOptionsInput,
} from './retrieval-options';
import { RetrievalPackRuntime } from './retrieval-pack-runtime';
import { retrievalEventIds } from './retrieval-telemetry';

function runtimeOn(options: RetrievalOptionsInput = {}, providers: KnowledgeIndexProvider[] = []) {
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({ environment: {}, logger });
  builder.addModule({ id: 'docs', version: '1.0.0' });
  const settings = builder.configuration.bind(retrievalSectionPath, retrievalOptionsSchema, options);
  const runtime = new RetrievalPackRuntime(builder, settings, providers, () =>
    Date.parse('2026-03-01T10:00:00Z'),
  );
  builder.addLifecycleHooks(runtime.lifecycleHooks());
  return { builder, runtime, logger };
}

const handbook = {
  id: 'handbook',
  fields: ['body'],
  source: () => [{ id: 'a', text: { body: 'how to file an expense' }, updatedAt: '2026-03-01T09:00:00Z' }],
};

describe('RetrievalPackRuntime', () => {
  it('adds a collection with its reindex job, and closes registration once the engine is built', () => {
    const { builder, runtime } = runtimeOn();
    const registered = runtime.addCollection('docs', handbook);
    expect(registered.id).toBe('handbook');
    builder.build();
    expect(() => runtime.addCollection('docs', { ...handbook, id: 'late' })).toThrow(
      expect.objectContaining({ code: 'RETRIEVAL_REGISTRATION_CLOSED' }),
    );
    expect(() => runtime.useProvider(createInProcessIndexProvider())).toThrow(
      expect.objectContaining({ code: 'RETRIEVAL_REGISTRATION_CLOSED' }),
    );
  });

  it('registers the background job only with ingestion and background reindexing both enabled', () => {
    expect(
      runtimeOn({ EnableIngestion: true, EnableBackgroundReindexing: true }).runtime.backgroundRegistered,
    ).toBe(true);
    expect(
      runtimeOn({ EnableIngestion: false, EnableBackgroundReindexing: true }).runtime.backgroundRegistered,
    ).toBe(false);
  });

  it('warns at build when the selected provider is not installed', () => {
    const { builder, logger } = runtimeOn({ Provider: 'postgresql' });
    builder.build();
    expect(logger.records).toContainEqual(
      expect.objectContaining({ eventId: retrievalEventIds.providerMissing }),
    );
  });

  it('indexes on the in-process provider once started, and closes every provider at stop', async () => {
    const closed: string[] = [];
    const extra: KnowledgeIndexProvider = {
      ...createInProcessIndexProvider(),
      id: 'extra',
      close: async () => void closed.push('extra'),
    };
    const { builder, runtime } = runtimeOn({ EnableIngestion: true }, [extra]);
    runtime.addCollection('docs', handbook);
    const engine = builder.build();
    await engine.start();
    try {
      await runtime.reindex.reindex('handbook', {}, { trigger: 'route', metadata: {} });
      expect(runtime.indexes()).toEqual([
        expect.objectContaining({ collectionId: 'handbook', documentCount: 1 }),
      ]);
      const found = await runtime.queries.query('handbook', { queryText: 'expense' });
      expect(found.matches.map((match) => match.documentId)).toEqual(['a']);
      expect(runtime.surfaces().map((surface) => surface.id)).toContain('knowledge-collection:handbook');
    } finally {
      await engine.stop();
    }
    expect(closed).toEqual(['extra']);
  });
});
