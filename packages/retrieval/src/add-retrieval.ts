import { defineExtensionKey, type EngineBuilder } from '@corekit/abstractions';
import { backgroundReindexJobId, runBackgroundReindex } from './background-reindexing';
import type { KnowledgeCollectionDefinition, RegisteredCollection } from './collections';
import type {
  KnowledgeIndexingResult,
  KnowledgeQueryRequest,
  KnowledgeQueryResult,
  ReindexRequest,
} from './index-model';
import type { KnowledgeIndexProvider } from './index-provider';
import { knowledgeIndexCatalog } from './retrieval-catalog';
import { retrievalOperations } from './retrieval-operations';
import { retrievalOperatorViews } from './retrieval-operator-views';
import {
  retrievalOptionsSchema,
  retrievalSectionPath,
  type RetrievalOptions,
  type RetrievalOptionsInput,
} from './retrieval-options';
import { RetrievalPackRuntime } from './retrieval-pack-runtime';
import { retrievalEventIdCatalog } from './retrieval-telemetry';

/** Options of `addRetrieval`: the `Engine:Retrieval` keys plus code-only parts. */
export interface AddRetrievalOptions extends RetrievalOptionsInput {
  /** Extra index providers (PostgreSQL, Elasticsearch, OpenSearch…); `Provider` selects one by id. */
  readonly providers?: readonly KnowledgeIndexProvider[];
  /** Source of time for state timestamps and freshness. Default: the system clock. */
  readonly clock?: { now(): number };
}

/** What `addRetrieval` answers: where modules register collections, plus the in-process runtime. */
export interface RetrievalRegistration {
  readonly options: RetrievalOptions;
  /** Registers a collection on behalf of a module (the module must be registered when the engine is built). */
  addCollection(sourceModuleId: string, collection: KnowledgeCollectionDefinition): RetrievalRegistration;
  /** Installs another index provider (before build). */
  useProvider(provider: KnowledgeIndexProvider): RetrievalRegistration;
  collections(): readonly RegisteredCollection[];
  /** Same path as the reindex route (trigger `route`); throws the route's OperationErrors. */
  reindex(collectionId: string, request?: ReindexRequest): Promise<KnowledgeIndexingResult>;
  /** Same path as the query route; throws the route's OperationErrors. */
  query(collectionId: string, request: KnowledgeQueryRequest): Promise<KnowledgeQueryResult>;
}

/** The typed key under which `addRetrieval` provides its registration. */
export const retrievalRegistrationKey = defineExtensionKey<RetrievalRegistration>(
  '@corekit/retrieval/registration',
  'knowledge collections, index providers and the in-process reindex and query runtime',
);

/**
 * Registers the retrieval pack: the `Engine:Retrieval` section, the index-state store and catalog, the reindex
 * and query operations, one reindex job per collection, the background reindexing job (only when ingestion and
 * background reindexing are enabled), technology surfaces and event ids 3260-3279. Calling it twice is refused.
 */
export function addRetrieval(
  builder: EngineBuilder,
  options: AddRetrievalOptions = {},
): RetrievalRegistration {
  builder.claimRegistration({ packageName: '@corekit/retrieval', entry: 'addRetrieval' });
  const { clock, providers: extraProviders = [], ...codeOptions } = options;
  const settings = builder.configuration.bind(retrievalSectionPath, retrievalOptionsSchema, codeOptions);
  builder.declarePack({ packageName: '@corekit/retrieval', specificationVersion: 1 });
  const now = clock ? () => clock.now() : () => Date.now();
  const runtime = new RetrievalPackRuntime(builder, settings, extraProviders, now);
  if (runtime.backgroundRegistered) {
    builder.addJob({
      id: backgroundReindexJobId,
      displayName: 'Background knowledge reindexing',
      owner: 'retrieval',
      runOnStartup: settings.BackgroundReindexRunOnStartup,
      startupDelayMs: settings.BackgroundReindexStartupDelayMilliseconds,
      intervalMs: settings.BackgroundReindexIntervalMilliseconds,
      run: (context) =>
        runBackgroundReindex(context, settings, runtime.collections, runtime.reindex, runtime.telemetry),
    });
  }
  builder.addEventIds(retrievalEventIdCatalog);
  builder.addCatalog(knowledgeIndexCatalog(runtime.states, now, settings.StaleAfterMinutes * 60_000));
  for (const view of retrievalOperatorViews(() => runtime.indexes(), settings.StaleAfterMinutes))
    builder.addOperatorView(view);
  for (const operation of retrievalOperations(runtime.reindex, runtime.queries))
    builder.addOperation(operation);
  builder.addTechnologySurfaces(() => runtime.surfaces());
  builder.addLifecycleHooks(runtime.lifecycleHooks());

  const registration = retrievalRegistration(settings, runtime);
  builder.provide(retrievalRegistrationKey, registration);
  return registration;
}

/** The registration modules and companion packages use: every call goes to the pack runtime. */
function retrievalRegistration(
  settings: RetrievalOptions,
  runtime: RetrievalPackRuntime,
): RetrievalRegistration {
  const registration: RetrievalRegistration = {
    options: settings,
    addCollection(sourceModuleId, collection) {
      runtime.addCollection(sourceModuleId, collection);
      return registration;
    },
    useProvider(provider) {
      runtime.useProvider(provider);
      return registration;
    },
    collections: () => runtime.collections.list(),
    reindex: (collectionId, request = {}) =>
      runtime.reindex.reindex(collectionId, request, { trigger: 'route', metadata: { route: 'in-process' } }),
    query: (collectionId, request) => runtime.queries.query(collectionId, request),
  };
  return registration;
}
