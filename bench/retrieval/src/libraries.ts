import { create, insertMultiple, search } from '@orama/orama';
import MiniSearch from 'minisearch';
import { miniSearchOptions } from '@corekit/retrieval';
import { percentile, type BenchDocument } from './workload';

export interface Measured {
  readonly name: string;
  readonly indexMs: number;
  readonly queryP50Ms: number;
  readonly queryP95Ms: number;
}

export const benchCollection = { id: 'bench', fields: ['title', 'body'], boosts: { title: 2 } };

/** MiniSearch called directly with the options the pack's in-process provider uses. */
export async function miniSearchDirect(
  docs: readonly BenchDocument[],
  queries: readonly string[],
  maxResults: number,
) {
  const started = performance.now();
  const index = new MiniSearch<BenchDocument>({
    fields: benchCollection.fields,
    storeFields: [],
    idField: 'id',
    searchOptions: miniSearchOptions(benchCollection),
  });
  index.addAll(docs);
  const indexMs = performance.now() - started;
  const latencies: number[] = [];
  for (const query of queries) {
    const at = performance.now();
    index.search(query).slice(0, maxResults);
    latencies.push(performance.now() - at);
  }
  return measured('MiniSearch (direct)', indexMs, latencies);
}

/** Orama called directly: same fields, title boosted twice, OR-like term matching, same result count. */
export async function oramaDirect(
  docs: readonly BenchDocument[],
  queries: readonly string[],
  maxResults: number,
) {
  const started = performance.now();
  const db = create({ schema: { id: 'string', title: 'string', body: 'string' } as const });
  await insertMultiple(
    db,
    docs.map(({ id, title, body }) => ({ id, title, body })),
    1000,
  );
  const indexMs = performance.now() - started;
  const latencies: number[] = [];
  for (const query of queries) {
    const at = performance.now();
    await search(db, { term: query, properties: ['title', 'body'], boost: { title: 2 }, limit: maxResults });
    latencies.push(performance.now() - at);
  }
  return measured('Orama (direct)', indexMs, latencies);
}

export function measured(name: string, indexMs: number, latencies: readonly number[]): Measured {
  const result = {
    name,
    indexMs,
    queryP50Ms: percentile(latencies, 50),
    queryP95Ms: percentile(latencies, 95),
  };
  console.error(`measured ${name} (${latencies.length} queries): ${JSON.stringify(result)}`);
  return result;
}
