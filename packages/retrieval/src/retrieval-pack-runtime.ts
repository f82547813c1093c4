import {
  CoreError,
  storePostureOf,
  type BuildHookContext,
  type EngineBuilder,
  type LeaseRecord,
  type LifecycleHooks,
  type RuntimeState,
} from '@corekit/abstractions';
import {
  CollectionRegistry,
  type KnowledgeCollectionDefinition,
  type RegisteredCollection,
} from './collections';
import type { KnowledgeIndexingResult } from './index-model';
import type { KnowledgeIndexProvider } from './index-provider';
import { reconcileIndexStates } from './index-reconciliation';
import { IndexStateStore, indexStateStoreName } from './index-state-store';
import { createInProcessIndexProvider } from './in-process-provider';
import { ProviderSelection } from './provider-selection';
import { QueryService } from './query-service';
import { ReindexLeases, reindexLeaseStoreName } from './reindex-leases';
import { ReindexService } from './reindex-service';
import { presentIndexStates } from './retrieval-catalog';
import { retrievalSectionPath, type RetrievalOptions } from './retrieval-options';
import { retrievalSurfaces } from './retrieval-surfaces';
import { retrievalEventIds, RetrievalTelemetry } from './retrieval-telemetry';
import { errorSummary } from './summaries';

/**
 * The retrieval pack's state and lifecycle on one builder: collections and index providers (open until the
 * engine is built), the index states and reindex leases in the engine store, the reindex and query services.
 * At start the states follow what is installed (shared with leases, process-local, or the store) and are
 * reconciled with the providers; at stop runs in progress finish, then the providers close.
 */
export class RetrievalPackRuntime {
  readonly collections = new CollectionRegistry();
  readonly providers: ProviderSelection;
  readonly telemetry: RetrievalTelemetry;
  readonly states: IndexStateStore;
  readonly reindex: ReindexService;
  readonly queries: QueryService;
  private readonly leases: ReindexLeases;
  private engine: { readonly state: RuntimeState } | undefined;
  private built = false;

  constructor(
    private readonly builder: EngineBuilder,
    private readonly settings: RetrievalOptions,
    extraProviders: readonly KnowledgeIndexProvider[],
    readonly now: () => number,
  ) {
    this.providers = new ProviderSelection(settings.Provider);
    this.providers.add(createInProcessIndexProvider());
    for (const provider of extraProviders) this.providers.add(provider);
    const telemetry = (this.telemetry = new RetrievalTelemetry(builder));
    this.states = new IndexStateStore(
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
    this.leases = new ReindexLeases(
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
    const services = { options: settings, collections: this.collections, providers: this.providers };
    this.reindex = new ReindexService({
      ...services,
      leases: this.leases,
      states: this.states,
      telemetry,
      now,
    });
    this.queries = new QueryService({ ...services, states: this.states, telemetry, now });
  }

  /** True when the background reindexing job runs (ingestion and background reindexing both enabled). */
  get backgroundRegistered(): boolean {
    return this.settings.EnableIngestion && this.settings.EnableBackgroundReindexing;
  }

  /** Adds a collection of a module with its reindex job; refused once the engine is built. */
  addCollection(sourceModuleId: string, collection: KnowledgeCollectionDefinition): RegisteredCollection {
    if (this.built)
      throw new CoreError('RETRIEVAL_REGISTRATION_CLOSED', 'collections must be added before build()');
    const registered = this.collections.add(sourceModuleId, collection);
    const handle = this.builder.addJob<KnowledgeIndexingResult>({
      id: `retrieval.reindex:${registered.id}`,
      displayName: `Reindex knowledge collection ${registered.id}`,
      owner: 'retrieval',
      run: (context) => this.reindex.runJob(registered, context),
    });
    this.reindex.attachJob(registered.id, handle);
    return registered;
  }

  /** Installs another index provider; refused once the engine is built. */
  useProvider(provider: KnowledgeIndexProvider): void {
    if (this.built)
      throw new CoreError('RETRIEVAL_REGISTRATION_CLOSED', 'providers must be installed before build()');
    this.providers.add(provider);
  }

  /** The index states as the catalog and the operator views present them. */
  indexes() {
    return presentIndexStates(this.states, this.now, this.settings.StaleAfterMinutes * 60_000);
  }

  /** The technology surfaces of the pack, as they are now. */
  surfaces() {
    return retrievalSurfaces({
      options: this.settings,
      collections: this.collections,
      providers: this.providers,
      states: this.states,
      backgroundRegistered: this.backgroundRegistered,
      isRunning: (id) => this.reindex.isRunning(id),
      isStarted: () => this.engine?.state === 'Started',
      now: this.now,
    });
  }

  /** The pack's lifecycle hooks (`retrieval`). */
  lifecycleHooks(): LifecycleHooks {
    return {
      id: 'retrieval',
      build: (context) => this.closeRegistration(context),
      attach: (attached) => {
        this.engine = attached;
      },
      started: () => this.started(),
      // Runs in progress finish first (an engine that awaits this hook lets them complete before jobs are
      // aborted; one that aborts at once ends them sooner), then the providers close.
      stopping: () => this.stopping(),
    };
  }

  private closeRegistration(context: BuildHookContext): readonly string[] {
    this.built = true;
    if (!this.providers.selected()) {
      this.builder.addWarning({
        code: 'RETRIEVAL_PROVIDER_MISSING',
        message: `Knowledge index provider "${this.settings.Provider}" is not installed: indexing and querying answer 404 (awaiting-provider)`,
        keyPath: `${retrievalSectionPath}:Provider`,
        eventId: retrievalEventIds.providerMissing,
      });
    }
    return this.collections.problems(context.moduleIds, this.settings.BackgroundReindexCollectionIds);
  }

  private async started(): Promise<void> {
    // Where the states live follows what is installed: a shared store and a shared (durable) index make
    // them shared with leases on runs; a shared store with this process's own index keeps them here.
    const traits = this.builder.storeTraits();
    const mode = !traits.shared
      ? 'store'
      : this.providers.selected()?.durable === true
        ? 'shared'
        : 'process-local';
    await this.states.start(mode, storePostureOf(traits).scope);
    await this.leases.start(mode === 'shared', (collectionId, lapsed) =>
      this.reindex.takeOver(collectionId, lapsed.owner, lapsed.workId),
    );
    const restored = this.states.list().length;
    if (restored > 0) {
      this.telemetry.log(
        'info',
        retrievalEventIds.statesRestored,
        `Restored ${restored} knowledge index state(s)`,
        {
          count: restored,
        },
      );
    }
    const { collections, providers, states, telemetry, now } = this;
    await reconcileIndexStates({ collections, providers, states, telemetry, now });
  }

  private async stopping(): Promise<void> {
    this.leases.stop();
    await this.reindex.settled();
    this.states.stop();
    for (const provider of this.providers.list()) {
      try {
        await provider.close?.();
      } catch {
        this.telemetry.log(
          'warn',
          retrievalEventIds.providerCloseFailed,
          `Closing index provider ${provider.id} failed`,
          { providerId: provider.id },
        );
      }
    }
  }
}
