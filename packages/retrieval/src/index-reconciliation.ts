import { indexedCollection, type CollectionRegistry } from './collections';
import type { IndexStateStore } from './index-state-store';
import type { ProviderSelection } from './provider-selection';
import { retrievalEventIds, type RetrievalTelemetry } from './retrieval-telemetry';
import { errorSummary } from './summaries';

export interface ReconciliationParts {
  readonly collections: CollectionRegistry;
  readonly providers: ProviderSelection;
  readonly states: IndexStateStore;
  readonly telemetry: RetrievalTelemetry;
  readonly now: () => number;
}

/**
 * Makes the restored index states true to what the selected provider holds, at every start. A state records
 * history (runs, queries) and facts about the index (document count, when it was built); history survives a
 * restart, the facts only as far as the index does. Each collection with a state is asked its document count:
 * a different count replaces the stored one, and an empty index clears `indexedAtUtc` and
 * `sourceFreshnessUtc`, so the collection reads `unindexed` / `awaiting-index` until a run rebuilds it (the
 * in-process index after any restart; a durable index dropped behind the pack's back). A provider that cannot
 * answer leaves the state as it was and is logged. Answers how many states changed.
 */
export async function reconcileIndexStates(parts: ReconciliationParts): Promise<number> {
  const provider = parts.providers.selected();
  if (!provider) return 0;
  let changed = 0;
  for (const collection of parts.collections.list()) {
    const state = parts.states.find(collection.id);
    if (!state) continue;
    let held: number;
    try {
      await provider.open(indexedCollection(collection));
      held = await provider.count(collection.id);
    } catch (error) {
      parts.telemetry.log(
        'warn',
        retrievalEventIds.indexStateReconciled,
        `Could not count the documents of ${collection.id} at start; its state is kept as stored`,
        { collectionId: collection.id, errorCode: errorSummary(error, 'RETRIEVAL_PROVIDER_FAILED').code },
      );
      continue;
    }
    const emptied = held === 0 && state.indexedAtUtc !== null;
    if (held === state.documentCount && !emptied) continue;
    await parts.states.update(
      collection.id,
      () => state,
      (current) => ({
        ...current,
        providerId: provider.id,
        documentCount: held,
        observedAtUtc: new Date(parts.now()).toISOString(),
        ...(held === 0 ? { indexedAtUtc: null, sourceFreshnessUtc: null } : {}),
      }),
    );
    changed += 1;
    parts.telemetry.log(
      'info',
      retrievalEventIds.indexStateReconciled,
      `The ${provider.id} index of ${collection.id} holds ${held} document(s), the stored state said ${state.documentCount}: the state now says ${held}`,
      {
        collectionId: collection.id,
        providerId: provider.id,
        documentCount: held,
        storedDocumentCount: state.documentCount,
      },
    );
  }
  return changed;
}
