import type {
  IndexedCollection,
  KnowledgeHighlight,
  KnowledgeIndexProvider,
  ProviderMatch,
} from '../index-provider';
import { isAlreadyExists, type SearchClusterCalls } from './search-cluster-calls';

/** Options of a search-cluster provider. */
export interface SearchClusterProviderOptions {
  /** `elasticsearch` or `opensearch`. */
  readonly id: string;
  readonly displayName: string;
  readonly calls: SearchClusterCalls;
  /** Prefix of index names (lower case). Default `corekit-knowledge-`. */
  readonly indexPrefix?: string;
  /** Results counted exactly up to this many (`track_total_hits`). Default 10000. */
  readonly trackTotalHits?: number;
}

const pageSize = 5000;

/** The index name of a collection: prefix plus the id lower-cased, characters outside `a-z0-9_-` as `-`. */
export function searchIndexName(prefix: string, collectionId: string): string {
  return (prefix + collectionId.toLowerCase()).replace(/[^a-z0-9_-]/g, '-').slice(0, 255);
}

/**
 * A knowledge-index provider on an Elasticsearch-compatible cluster: one index per collection (created on
 * first use with `docId` keyword, `updatedAt` long, unindexed `metadata` and one `text` field per collection
 * field), bulk writes, a refresh per run, `multi_match` (best_fields, any term) with field boosts, native
 * highlighting with `<mark>`, versions read by `search_after` pages on `docId`. Durable and shared.
 */
export function createSearchClusterIndexProvider(
  options: SearchClusterProviderOptions,
): KnowledgeIndexProvider {
  const prefix = options.indexPrefix ?? 'corekit-knowledge-';
  const trackTotalHits = options.trackTotalHits ?? 10_000;
  const { calls } = options;
  const opened = new Set<string>();
  const index = (collectionId: string) => searchIndexName(prefix, collectionId);
  const failIfErrors = (answer: Awaited<ReturnType<SearchClusterCalls['bulk']>>) => {
    if (!answer.errors) return;
    const failed = answer.items
      .map((item) => Object.values(item)[0]!)
      .find((item) => item.status >= 300 && !(item.status === 404 && !item.error?.type?.includes('index')));
    if (failed) throw new Error(`bulk write refused: ${failed.error?.type ?? failed.status}`);
  };
  return {
    id: options.id,
    displayName: options.displayName,
    durable: true,
    async open(collection: IndexedCollection) {
      const name = index(collection.id);
      if (opened.has(name)) return;
      if (!(await calls.indexExists(name))) {
        const text = Object.fromEntries(collection.fields.map((field) => [field, { type: 'text' }]));
        try {
          await calls.createIndex(name, {
            settings: { number_of_shards: 1 },
            mappings: {
              dynamic: false,
              properties: {
                docId: { type: 'keyword' },
                updatedAt: { type: 'long' },
                metadata: { type: 'object', enabled: false },
                fields: { properties: text },
              },
            },
          });
        } catch (error) {
          if (!isAlreadyExists(error)) throw error;
        }
      }
      opened.add(name);
    },
    async versions(collectionId) {
      const versions = new Map<string, number>();
      let after: unknown[] | undefined;
      for (;;) {
        const answer = await calls.search(index(collectionId), {
          size: pageSize,
          query: { match_all: {} },
          _source: ['docId', 'updatedAt'],
          sort: [{ docId: 'asc' }],
          ...(after ? { search_after: after } : {}),
        });
        for (const hit of answer.hits.hits) versions.set(hit._id, Number(hit._source?.updatedAt));
        if (answer.hits.hits.length < pageSize) return versions;
        after = answer.hits.hits.at(-1)!.sort;
      }
    },
    async upsert(collectionId, documents) {
      if (documents.length === 0) return;
      const name = index(collectionId);
      const operations = documents.flatMap((document) => [
        { index: { _index: name, _id: document.id } },
        {
          docId: document.id,
          updatedAt: document.updatedAt,
          metadata: document.metadata,
          fields: document.fields,
        },
      ]);
      failIfErrors(await calls.bulk(operations));
    },
    async remove(collectionId, ids) {
      if (ids.length === 0) return;
      const name = index(collectionId);
      failIfErrors(await calls.bulk(ids.map((id) => ({ delete: { _index: name, _id: id } }))));
    },
    async commit(collectionId) {
      await calls.refresh(index(collectionId));
    },
    async count(collectionId) {
      return calls.count(index(collectionId));
    },
    async query(collection, query) {
      const fields = collection.fields.map((field) => {
        const boost = collection.boosts[field];
        return boost && boost !== 1 ? `fields.${field}^${boost}` : `fields.${field}`;
      });
      const answer = await calls.search(index(collection.id), {
        size: query.maxResults,
        track_total_hits: trackTotalHits,
        query: { multi_match: { query: query.text, fields, type: 'best_fields', operator: 'or' } },
        _source: ['docId', 'updatedAt', 'metadata'],
        highlight: {
          pre_tags: ['<mark>'],
          post_tags: ['</mark>'],
          fields: Object.fromEntries(
            collection.fields.map((field) => [
              `fields.${field}`,
              { number_of_fragments: 1, fragment_size: 160 },
            ]),
          ),
        },
      });
      const matches: ProviderMatch[] = answer.hits.hits.map((hit) => {
        const highlights: KnowledgeHighlight[] = [];
        for (const field of collection.fields) {
          const snippet = hit.highlight?.[`fields.${field}`]?.[0];
          if (snippet !== undefined && highlights.length < query.maxHighlights)
            highlights.push({ field, snippet });
        }
        return {
          id: hit._id,
          score: hit._score ?? 0,
          highlights,
          metadata: (hit._source?.metadata ?? {}) as ProviderMatch['metadata'],
          updatedAt: Number(hit._source?.updatedAt ?? 0),
        };
      });
      const total = answer.hits.total;
      const value = typeof total === 'number' ? total : (total?.value ?? matches.length);
      return {
        matches,
        total: value,
        totalIsLowerBound: typeof total === 'object' && total.relation === 'gte',
      };
    },
    async close() {
      opened.clear();
      await calls.close();
    },
  };
}
