import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Engine } from '@corekit/abstractions';
import type {
  PackLifecycleAdapter,
  PackLifecycleEnvironment,
} from '@corekit/testing/pack-lifecycle-conformance';
import { addRetrieval, retrievalRegistrationKey, type KnowledgeIndexProvider } from '../index';

const collectionId = 'lifecycle';

/** The source's document ids live in a file beside the store folder, so every engine and process sees them. */
const sourceFile = (environment: PackLifecycleEnvironment) =>
  `${environment.directory}.retrieval-source.json`;
const sourceIds = (environment: PackLifecycleEnvironment): string[] =>
  existsSync(sourceFile(environment))
    ? (JSON.parse(readFileSync(sourceFile(environment), 'utf8')) as string[])
    : [];

/** A word only the document of work `id` holds. */
const wordOf = (id: string) => `marker${id.replace(/[^a-z0-9]/gi, '')}`;

function surface(engine: Engine): Record<string, unknown> {
  return engine.technologySurfaces().find((entry) => entry.id === `knowledge-collection:${collectionId}`)!
    .metadata;
}

async function total(engine: Engine, text: string): Promise<number> {
  if (engine.state !== 'Started') return 0;
  const registration = engine.resolve(retrievalRegistrationKey)!;
  const answer = await registration.query(collectionId, { queryText: text });
  return answer.totalMatches;
}

/**
 * The retrieval pack for the pack lifecycle conformance suite: one collection whose source holds one document
 * per unit of work (every document holds the word `lifecycle`, and its own marker word). Work adds a document
 * and reindexes; it happened when a query finds it. The source reads each document through
 * `environment.perform`, so the suite can hold an indexing run in flight.
 */
export function retrievalLifecycleAdapter(
  options: {
    /** Another provider (its id is selected): one per engine, built from the test's environment. */
    provider?: { id: string; create(environment: PackLifecycleEnvironment): KnowledgeIndexProvider };
    name?: string;
    packageDirectory?: string;
  } = {},
): PackLifecycleAdapter {
  return {
    pack: options.name ?? 'retrieval (in-process index)',
    configuration: {
      Engine: { Retrieval: options.provider ? { Provider: options.provider.id } : {} },
    },
    processFixture: options.packageDirectory
      ? { packageDirectory: options.packageDirectory, fixture: 'retrieval-lifecycle.ts' }
      : undefined,
    register(builder, environment) {
      builder.addModule({ id: 'lifecycle', version: '1.0.0' });
      const retrieval = addRetrieval(
        builder,
        options.provider ? { providers: [options.provider.create(environment)] } : {},
      );
      retrieval.addCollection('lifecycle', {
        id: collectionId,
        fields: ['title', 'body'],
        source: async function* ({ signal }) {
          for (const id of sourceIds(environment)) {
            await environment.perform(id, signal);
            yield {
              id,
              text: { title: `lifecycle ${wordOf(id)}`, body: 'lifecycle' },
              updatedAt: 1_700_000_000_000,
            };
          }
        },
      });
    },
    async work(engine, id, environment) {
      writeFileSync(sourceFile(environment), JSON.stringify([...sourceIds(environment), id]));
      // The run may be held in flight by the suite: the caller is not held with it.
      void engine
        .resolve(retrievalRegistrationKey)!
        .reindex(collectionId)
        .catch(() => undefined);
    },
    async happened(engine, id) {
      return (await total(engine, wordOf(id))) > 0;
    },
    async claims(engine) {
      const metadata = surface(engine);
      return {
        ready: metadata.runtimeState === 'ready',
        fresh: metadata.freshnessState === 'fresh',
        documentCount: metadata.documentCount,
      };
    },
    async facts(engine) {
      const held = await total(engine, 'lifecycle');
      return { ready: held > 0, fresh: held > 0, documentCount: held };
    },
  };
}
