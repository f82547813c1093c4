import type { CatalogDefinition } from '@corekit/abstractions';
import { freshnessOf, knowledgeIndexStateSchema, type KnowledgeIndexState } from './index-model';
import type { IndexStateStore } from './index-state-store';

/** Every recorded index state with its freshness now and its scope: the catalog's entries. */
export function presentIndexStates(
  states: IndexStateStore,
  now: () => number,
  staleAfterMs: number,
): KnowledgeIndexState[] {
  return states.list().map((state) => ({
    ...state,
    freshnessState: freshnessOf(state, now(), staleAfterMs),
    scope: states.scope,
  }));
}

/**
 * The index-state catalog (`/engine/knowledge-indexes`, by id, snapshot `knowledgeIndexes`). A collection
 * appears once activity (a run or a query) was recorded for it; before that its by-id route answers 404.
 */
export function knowledgeIndexCatalog(
  states: IndexStateStore,
  now: () => number,
  staleAfterMs: number,
): CatalogDefinition<KnowledgeIndexState> {
  return {
    id: 'knowledge-indexes',
    displayName: 'Knowledge indexes',
    description: 'Indexing and query state per knowledge collection (query text is never kept)',
    path: '/engine/knowledge-indexes',
    snapshotField: 'knowledgeIndexes',
    idField: 'collectionId',
    entrySchema: knowledgeIndexStateSchema,
    list: () => presentIndexStates(states, now, staleAfterMs),
  };
}
