import MiniSearch, { type SearchOptions } from 'minisearch';
import { highlightFields } from './highlights';
import type {
  IndexedCollection,
  IndexedDocument,
  KnowledgeIndexProvider,
  ProviderQuery,
  ProviderQueryAnswer,
} from './index-provider';

/** The search options the in-process provider passes to MiniSearch (the benchmark calls MiniSearch with the same). */
export function miniSearchOptions(collection: IndexedCollection): SearchOptions {
  return {
    combineWith: 'OR',
    prefix: (term) => term.length >= 4,
    fuzzy: false,
    boost: { ...collection.boosts },
  };
}

interface CollectionIndex {
  readonly search: MiniSearch<{ id: string } & Record<string, string>>;
  readonly documents: Map<string, IndexedDocument>;
}

/**
 * The default provider: a MiniSearch full-text index (BM25+ ranking, prefix matching on terms of four letters
 * or more) per collection, held in this process's memory. It is not durable: after a restart the first
 * indexing run is a full one. Memory grows with the indexed text (each document is kept once for highlights).
 */
export function createInProcessIndexProvider(): KnowledgeIndexProvider {
  const indexes = new Map<string, CollectionIndex>();
  const indexOf = (collectionId: string): CollectionIndex => {
    const index = indexes.get(collectionId);
    if (!index) throw new Error(`the in-process index of "${collectionId}" is not open`);
    return index;
  };
  const row = (document: IndexedDocument) => ({ ...document.fields, id: document.id });
  return {
    id: 'in-process',
    displayName: 'In-process full-text index (MiniSearch)',
    durable: false,
    async open(collection) {
      if (indexes.has(collection.id)) return;
      const search = new MiniSearch<{ id: string } & Record<string, string>>({
        fields: [...collection.fields],
        storeFields: [],
        idField: 'id',
        searchOptions: miniSearchOptions(collection),
      });
      indexes.set(collection.id, { search, documents: new Map() });
    },
    async versions(collectionId) {
      const versions = new Map<string, number>();
      for (const [id, document] of indexOf(collectionId).documents) versions.set(id, document.updatedAt);
      return versions;
    },
    async upsert(collectionId, documents) {
      const index = indexOf(collectionId);
      const fresh: Array<{ id: string } & Record<string, string>> = [];
      for (const document of documents) {
        if (index.documents.has(document.id)) index.search.discard(document.id);
        index.documents.set(document.id, document);
        fresh.push(row(document));
      }
      index.search.addAll(fresh);
    },
    async remove(collectionId, ids) {
      const index = indexOf(collectionId);
      for (const id of ids) {
        if (!index.documents.delete(id)) continue;
        index.search.discard(id);
      }
    },
    async count(collectionId) {
      return indexOf(collectionId).documents.size;
    },
    async query(collection: IndexedCollection, query: ProviderQuery): Promise<ProviderQueryAnswer> {
      const index = indexOf(collection.id);
      const results = index.search.search(query.text);
      const matches = results.slice(0, query.maxResults).map((result) => {
        const document = index.documents.get(String(result.id))!;
        return {
          id: document.id,
          score: result.score,
          highlights: highlightFields(collection.fields, document.fields, result.terms, query.maxHighlights),
          metadata: document.metadata,
          updatedAt: document.updatedAt,
        };
      });
      return { matches, total: results.length };
    },
    async close() {
      indexes.clear();
    },
  };
}
