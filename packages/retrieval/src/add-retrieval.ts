import {
  CoreError,
  defineExtensionKey,
  storePostureOf,
  type EngineBuilder,
  type LeaseRecord,
  type RuntimeState,
} from '@corekit/abstractions';
import { backgroundReindexJobId, runBackgroundReindex } from './background-reindexing';
import {
  CollectionRegistry,
  type KnowledgeCollectionDefinition,
  type RegisteredCollection,
} from './collections';
import type {
  KnowledgeIndexingResult,
  KnowledgeQueryRequest,
  KnowledgeQueryResult,
  ReindexRequest,
} from './index-model';
import type { KnowledgeIndexProvider } from './index-provider';
import { IndexStateStore, indexStateStoreName } from './index-state-store';
import { createInProcessIndexProvider } from './in-process-provider';
import { reconcileIndexStates } from './index-reconciliation';
import { ProviderSelection } from './provider-selection';
import { QueryService } from './query-service';
import { ReindexLeases, reindexLeaseStoreName } from './reindex-leases';
import { ReindexService } from './reindex-service';
import { knowledgeIndexCatalog, presentIndexStates } from './retrieval-catalog';
import { retrievalOperations } from './retrieval-operations';
import { retrievalOperatorViews } from './retrieval-operator-views';
import {
  retrievalOptionsSchema,
  retrievalSectionPath,
  type RetrievalOptions,
  type RetrievalOptionsInput,
} from './retrieval-options';
import { retrievalSurfaces } from './retrieval-surfaces';
import { errorSummary } from './summaries';
import { retrievalEventIdCatalog, retrievalEventIds, RetrievalTelemetry } from './retrieval-telemetry';

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
  const collections = new CollectionRegistry();
  const providers = new ProviderSelection(settings.Provider);
  providers.add(createInProcessIndexProvider());
  for (const provider of extraProviders) providers.add(provider);
  const telemetry = new RetrievalTelemetry(builder);
  const states = new IndexStateStore(
    builder.openStore(indexStateStoreName, { maxEntries: 10_000 }),
    settings.SharedStateRefreshMilliseconds,
    (collectionId, error) =>
      telemetry.log(
        'error',
        retrievalEventIds.stateStoreFailed,
        `Writing the index state of ${collectionId} failed`,
        {
          collectionId,
          errorCode: errorSummary(error, 'RETRIEVAL_STATE_STORE_FAILED').code,
        },
      ),
    (error) =>
      telemetry.log('warn', retrievalEventIds.stateStoreFailed, 'Reading the shared index states failed', {
        errorCode: errorSummary(error, 'RETRIEVAL_STATE_STORE_FAILED').code,
      }),
  );
  const leases = new ReindexLeases(
    builder.instanceId,
    builder.openStore<LeaseRecord>(reindexLeaseStoreName, {
      maxEntries: 10_000,
      description: 'which replica indexes a knowledge collection now (owner and lease)',
    }),
    { leaseMs: settings.ReindexLeaseSeconds * 1000, refreshMs: settings.SharedStateRefreshMilliseconds },
    now,
    (message, error) =>
      telemetry.log('warn', retrievalEventIds.reindexLeaseProblem, message, {
        ...(error ? { errorCode: errorSummary(error, 'RETRIEVAL_REINDEX_LEASE_FAILED').code } : {}),
      }),
  );
  const reindex = new ReindexService({
    options: settings,
    leases,
    collections,
    providers,
    states,
    telemetry,
    now,
  });
  const queries = new QueryService({ options: settings, collections, providers, states, telemetry, now });
  let engine: { readonly state: RuntimeState } | undefined;
  let built = false;

  const backgroundRegistered = settings.EnableIngestion && settings.EnableBackgroundReindexing;
  if (backgroundRegistered) {
    builder.addJob({
      id: backgroundReindexJobId,
      displayName: 'Background knowledge reindexing',
      owner: 'retrieval',
      runOnStartup: settings.BackgroundReindexRunOnStartup,
      startupDelayMs: settings.BackgroundReindexStartupDelayMilliseconds,
      intervalMs: settings.BackgroundReindexIntervalMilliseconds,
      run: (context) => runBackgroundReindex(context, settings, collections, reindex, telemetry),
    });
  }
  builder.addEventIds(retrievalEventIdCatalog);
  const staleAfterMs = settings.StaleAfterMinutes * 60_000;
  builder.addCatalog(knowledgeIndexCatalog(states, now, staleAfterMs));
  const indexes = () => presentIndexStates(states, now, staleAfterMs);
  for (const view of retrievalOperatorViews(indexes, settings.StaleAfterMinutes))
    builder.addOperatorView(view);
  for (const operation of retrievalOperations(reindex, queries)) builder.addOperation(operation);
  builder.addTechnologySurfaces(() =>
    retrievalSurfaces({
      options: settings,
      collections,
      providers,
      states,
      backgroundRegistered,
      isRunning: (id) => reindex.isRunning(id),
      isStarted: () => engine?.state === 'Started',
      now,
    }),
  );
  builder.addLifecycleHooks({
    id: 'retrieval',
    build: (context) => {
      built = true;
      if (!providers.selected()) {
        builder.addWarning({
          code: 'RETRIEVAL_PROVIDER_MISSING',
          message: `Knowledge index provider "${settings.Provider}" is not installed: indexing and querying answer 404 (awaiting-provider)`,
          keyPath: `${retrievalSectionPath}:Provider`,
          eventId: retrievalEventIds.providerMissing,
        });
      }
      return collections.problems(context.moduleIds, settings.BackgroundReindexCollectionIds);
    },
    attach: (attached) => {
      engine = attached;
    },
    started: async () => {
      // Where the states live follows what is installed: a shared store and a shared (durable) index make
      // them shared with leases on runs; a shared store with this process's own index keeps them here.
      const traits = builder.storeTraits();
      const mode = !traits.shared
        ? 'store'
        : providers.selected()?.durable === true
          ? 'shared'
          : 'process-local';
      await states.start(mode, storePostureOf(traits).scope);
      await leases.start(mode === 'shared', (collectionId, lapsed) =>
        reindex.takeOver(collectionId, lapsed.owner, lapsed.workId),
      );
      const restored = states.list().length;
      if (restored > 0) {
        telemetry.log(
          'info',
          retrievalEventIds.statesRestored,
          `Restored ${restored} knowledge index state(s)`,
          { count: restored },
        );
      }
      await reconcileIndexStates({ collections, providers, states, telemetry, now });
    },
    // Runs in progress finish first (an engine that awaits this hook lets them complete before jobs are
    // aborted; one that aborts at once ends them sooner), then the providers close.
    stopping: async () => {
      leases.stop();
      await reindex.settled();
      states.stop();
      for (const provider of providers.list()) {
        try {
          await provider.close?.();
        } catch (error) {
          telemetry.log(
            'warn',
            retrievalEventIds.providerCloseFailed,
            `Closing index provider ${provider.id} failed`,
            {
              providerId: provider.id,
            },
          );
          void error;
        }
      }
    },
  });

  const registration: RetrievalRegistration = {
    options: settings,
    addCollection(sourceModuleId, collection) {
      if (built)
        throw new CoreError('RETRIEVAL_REGISTRATION_CLOSED', 'collections must be added before build()');
      const registered = collections.add(sourceModuleId, collection);
      const handle = builder.addJob<KnowledgeIndexingResult>({
        id: `retrieval.reindex:${registered.id}`,
        displayName: `Reindex knowledge collection ${registered.id}`,
        owner: 'retrieval',
        run: (context) => reindex.runJob(registered, context),
      });
      reindex.attachJob(registered.id, handle);
      return registration;
    },
    useProvider(provider) {
      if (built)
        throw new CoreError('RETRIEVAL_REGISTRATION_CLOSED', 'providers must be installed before build()');
      providers.add(provider);
      return registration;
    },
    collections: () => collections.list(),
    reindex: (collectionId, request = {}) =>
      reindex.reindex(collectionId, request, { trigger: 'route', metadata: { route: 'in-process' } }),
    query: (collectionId, request) => queries.query(collectionId, request),
  };
  builder.provide(retrievalRegistrationKey, registration);
  return registration;
}
