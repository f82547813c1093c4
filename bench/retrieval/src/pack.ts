import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addRetrieval, type KnowledgeIndexProvider } from '@corekit/retrieval';
import { benchCollection, measured } from './libraries';
import type { BenchDocument } from './workload';

/**
 * The pack end to end in process: an engine with one collection whose source yields the documents, one full
 * reindex (`registration.reindex`, the route's path: job, incremental diff, batches, state store), then each
 * query through `registration.query` (validation, provider, highlights, state update).
 */
export async function packRun(
  name: string,
  docs: readonly BenchDocument[],
  queries: readonly string[],
  maxResults: number,
  provider?: KnowledgeIndexProvider,
) {
  const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
  builder.addModule({ id: 'bench', version: '1.0.0', capabilities: [] });
  const retrieval = addRetrieval(builder, {
    DefaultMaxResults: maxResults,
    ...(provider ? { providers: [provider], Provider: provider.id } : {}),
  });
  retrieval.addCollection('bench', {
    ...benchCollection,
    source: () =>
      docs.map((doc) => ({
        id: doc.id,
        text: { title: doc.title, body: doc.body },
        updatedAt: doc.updatedAt,
      })),
  });
  const engine = builder.build();
  await engine.start();
  const started = performance.now();
  const result = await retrieval.reindex('bench');
  const indexMs = performance.now() - started;
  if (result.outcome !== 'succeeded') throw new Error(`reindex ${result.outcome}: ${result.error?.message}`);
  const latencies: number[] = [];
  for (const query of queries) {
    const at = performance.now();
    await retrieval.query('bench', { queryText: query });
    latencies.push(performance.now() - at);
  }
  await engine.stop();
  return measured(name, indexMs, latencies);
}
