import type { TechnologySurface } from '@corekit/abstractions';
import { collectionScope, scopedCollectionIds } from './background-reindexing';
import type { CollectionRegistry } from './collections';
import { freshnessOf } from './index-model';
import type { IndexStateStore } from './index-state-store';
import type { ProviderSelection } from './provider-selection';
import type { RetrievalOptions } from './retrieval-options';

const sourcePackage = '@corekit/retrieval';

export interface SurfaceInputs {
  readonly options: RetrievalOptions;
  readonly collections: CollectionRegistry;
  readonly providers: ProviderSelection;
  readonly states: IndexStateStore;
  readonly backgroundRegistered: boolean;
  readonly isRunning: (collectionId: string) => boolean;
  readonly isStarted: () => boolean;
  readonly now: () => number;
}

/** One surface per collection with every 2.5 retrieval key, plus one for the pack and its provider. */
export function retrievalSurfaces(inputs: SurfaceInputs): TechnologySurface[] {
  const { options, collections, providers, states, now } = inputs;
  const provider = providers.selected();
  const inScope = new Set(scopedCollectionIds(options, collections));
  const backgroundEnabled = options.EnableBackgroundReindexing && options.EnableIngestion;
  const configuredCollectionCount = collections.list().length;
  const background = (collectionId: string) => ({
    backgroundReindexingEnabled: backgroundEnabled,
    backgroundReindexingScheduled: inputs.backgroundRegistered && inScope.has(collectionId),
    backgroundReindexingOwnership: inputs.backgroundRegistered ? 'core-managed' : 'not-configured',
    backgroundReindexingCollectionScope: collectionScope(options),
    backgroundReindexingStartupRun: options.BackgroundReindexRunOnStartup,
    backgroundReindexingStartupDelayMilliseconds: options.BackgroundReindexStartupDelayMilliseconds,
    backgroundReindexingIntervalMilliseconds: options.BackgroundReindexIntervalMilliseconds,
    configuredCollectionCount,
  });
  const surfaces: TechnologySurface[] = collections.list().map((collection) => {
    const state = states.find(collection.id);
    const indexed = state?.indexedAtUtc != null;
    const indexingOwnership = !options.EnableIngestion
      ? 'not-configured'
      : provider
        ? 'core-managed'
        : 'awaiting-provider';
    const queryOwnership = !options.EnableQuerying
      ? 'not-configured'
      : !provider
        ? 'awaiting-provider'
        : indexed
          ? 'core-managed'
          : 'awaiting-index';
    const runtimeState = !inputs.isStarted()
      ? 'not-active'
      : !provider
        ? 'awaiting-provider'
        : inputs.isRunning(collection.id)
          ? 'indexing'
          : state?.latestOutcome === 'failed'
            ? 'failed'
            : indexed
              ? 'ready'
              : 'awaiting-index';
    return {
      id: `knowledge-collection:${collection.id}`,
      kind: 'knowledge-collection',
      displayName: collection.displayName ?? collection.id,
      sourcePackage,
      metadata: {
        collectionId: collection.id,
        description: collection.description ?? null,
        sourceModuleId: collection.sourceModuleId,
        fields: [...collection.fields],
        tags: [...(collection.tags ?? [])],
        providerId: options.Provider,
        indexingOwnership,
        queryOwnership,
        runtimeState,
        freshnessState: state ? freshnessOf(state, now(), options.StaleAfterMinutes * 60_000) : 'unindexed',
        documentCount: state?.documentCount ?? 0,
        queryCount: state?.queryCount ?? 0,
        latestIndexRunId: state?.latestRunId ?? null,
        latestIndexOutcome: state?.latestOutcome ?? null,
        latestIndexTrigger: state?.latestTrigger ?? null,
        latestIndexedAtUtc: state?.indexedAtUtc ?? null,
        sourceFreshnessUtc: state?.sourceFreshnessUtc ?? null,
        latestQueryMatchedCount: state?.matchedCounts.latest ?? null,
        latestQueryTotalMatches: state?.matchedCounts.latestTotal ?? null,
        totalMatchedCount: state?.matchedCounts.total ?? 0,
        zeroMatchQueryCount: state?.matchedCounts.zeroMatchQueries ?? 0,
        indexStateScope: states.scope,
        ...background(collection.id),
      },
    };
  });
  surfaces.push({
    id: 'knowledge-retrieval',
    kind: 'knowledge-retrieval',
    displayName: 'Knowledge retrieval',
    sourcePackage,
    metadata: {
      providerId: options.Provider,
      providerInstalled: provider !== undefined,
      providerDisplayName: provider?.displayName ?? null,
      providerDurable: provider?.durable ?? null,
      indexStateScope: states.scope,
      reindexLeaseSeconds: options.ReindexLeaseSeconds,
      sharedStateRefreshMilliseconds: options.SharedStateRefreshMilliseconds,
      ...states.freshness(),
      installedProviderIds: providers.list().map((item) => item.id),
      ingestionEnabled: options.EnableIngestion,
      queryingEnabled: options.EnableQuerying,
      defaultMaxResults: options.DefaultMaxResults,
      maxResultsLimit: options.MaxResultsLimit,
      maxQueryLength: options.MaxQueryLength,
      backgroundReindexingEnabled: backgroundEnabled,
      backgroundReindexingScheduled: inputs.backgroundRegistered,
      backgroundReindexingOwnership: inputs.backgroundRegistered ? 'core-managed' : 'not-configured',
      backgroundReindexingCollectionScope: collectionScope(options),
      backgroundReindexCollectionIds: [...options.BackgroundReindexCollectionIds],
      backgroundReindexingStartupRun: options.BackgroundReindexRunOnStartup,
      backgroundReindexingStartupDelayMilliseconds: options.BackgroundReindexStartupDelayMilliseconds,
      backgroundReindexingIntervalMilliseconds: options.BackgroundReindexIntervalMilliseconds,
      configuredCollectionCount,
    },
  });
  return surfaces;
}
