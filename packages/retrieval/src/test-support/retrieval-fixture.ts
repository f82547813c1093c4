import type { ModuleDefinition } from '@corekit/abstractions';
import {
  createEngineBuilder,
  createMemoryLogger,
  manualClock,
  type CoreEngineBuilder,
  type ManualClock,
} from '@corekit/engine-core';
import { addRetrieval, type AddRetrievalOptions, type RetrievalRegistration } from '../add-retrieval';
import type { KnowledgeDocument } from '../collections';

export const handbookModule: ModuleDefinition = { id: 'handbook', version: '1.0.0', capabilities: [] };

/** A mutable document source: tests change `documents` between runs; `gate` holds a run mid-way. */
export interface TestSource {
  documents: KnowledgeDocument[];
  reads: number;
  gate: Promise<void> | null;
  failWith: Error | null;
}

export function testSource(documents: KnowledgeDocument[] = sampleDocuments()): TestSource {
  return { documents, reads: 0, gate: null, failWith: null };
}

export function sampleDocuments(): KnowledgeDocument[] {
  const at = '2026-01-01T00:00:00.000Z';
  return [
    {
      id: 'reindexing',
      text: {
        title: 'Background reindexing',
        body: 'The scheduler reindexes every collection after the startup delay.',
      },
      metadata: { section: 'operations', pages: 3 },
      updatedAt: at,
    },
    {
      id: 'queries',
      text: {
        title: 'Querying collections',
        body: 'A query answers ranked matches with scores and highlights.',
      },
      metadata: { section: 'usage' },
      updatedAt: at,
    },
    {
      id: 'providers',
      text: {
        title: 'Index providers',
        body: 'PostgreSQL full text, Elasticsearch and OpenSearch providers rank matches.',
      },
      updatedAt: at,
    },
  ];
}

export interface Fixture {
  readonly clock: ManualClock;
  readonly logger: ReturnType<typeof createMemoryLogger>;
  readonly builder: CoreEngineBuilder;
  readonly source: TestSource;
  readonly retrieval: RetrievalRegistration;
}

/** A builder with the handbook module and its `handbook` collection (title boosted twice) on `source`. */
export function retrievalFixture(
  options: AddRetrievalOptions = {},
  configuration: Record<string, unknown> = {},
  source: TestSource = testSource(),
  collectionId = 'handbook',
): Fixture {
  const clock = manualClock();
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({
    configuration,
    environment: {},
    clock,
    logger,
    contentRoot: __dirname,
  });
  builder.addModule(handbookModule);
  const retrieval = addRetrieval(builder, { clock, ...options });
  retrieval.addCollection('handbook', {
    id: collectionId,
    displayName: 'Handbook',
    fields: ['title', 'body'],
    boosts: { title: 2 },
    source: async function* () {
      source.reads += 1;
      if (source.gate) await source.gate;
      if (source.failWith) throw source.failWith;
      yield* source.documents;
    },
  });
  return { clock, logger, builder, source, retrieval };
}
