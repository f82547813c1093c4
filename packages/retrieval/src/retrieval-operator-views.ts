import type { OperatorViewDefinition } from '@corekit/abstractions';
import type { KnowledgeIndexState } from './index-model';

/**
 * The retrieval pack's operator view (`builder.addOperatorView`): knowledge indexes that are not fresh (last
 * run failed, older than `Engine:Retrieval:StaleAfterMinutes`, or never indexed), read from the catalog's own
 * live list, with a Reindex action through `retrieval.reindex` (its authorization applies).
 */
export function retrievalOperatorViews(
  indexes: () => readonly KnowledgeIndexState[],
  staleAfterMinutes: number,
): OperatorViewDefinition<KnowledgeIndexState>[] {
  return [
    {
      id: 'knowledge-index-freshness',
      title: 'Knowledge indexes not fresh',
      description: `Indexes whose last run failed, that were never indexed, or whose last index is older than ${staleAfterMinutes} min (Engine:Retrieval:StaleAfterMinutes).`,
      listPath: '/engine/knowledge-indexes',
      idField: 'collectionId',
      entryPath: '/engine/knowledge-indexes/{collectionId}',
      columns: [
        { label: 'Freshness', value: (state) => state.freshnessState },
        { label: 'Indexed at', value: (state) => state.indexedAtUtc },
        { label: 'Last outcome', value: (state) => state.latestOutcome },
        { label: 'Documents', value: (state) => state.documentCount },
        { label: 'Provider', value: (state) => state.providerId },
      ],
      actions: [
        { operationId: 'retrieval.reindex', label: 'Reindex', params: { collectionId: 'collectionId' } },
      ],
      rows: () => indexes().filter((state) => state.freshnessState !== 'fresh'),
    },
  ];
}
