import {
  CoreError,
  serviceIdentityFrom,
  type CatalogDefinition,
  type OperatorViewDefinition,
  type DependencyHealthContributor,
  type EngineBuilder,
  type EventIdCatalogEntry,
  type ExecutionGraphDescriptor,
  type ExtensionKey,
  type HostedExecutionDescriptor,
  type HostedService,
  type JobDefinition,
  type JobHandle,
  type KeyedStore,
  type LifecycleHooks,
  type ModuleDefinition,
  type OperationDefinition,
  type PackDeclaration,
  type RegistrationClaim,
  type ServiceIdentity,
  type RegistrationWarning,
  type StoreOptions,
  type StoreProvider,
  type StoreProviderTraits,
  type TechnologySurface,
} from '@corekit/abstractions';
import { CatalogRegistry } from './catalog-registry';
import { systemClock, type Clock } from './clock';
import { ConfigurationStore } from './configuration-store';
import { DependencyHealthScheduler } from './dependency-health-scheduler';
import { CoreEngine, engineVersion } from './engine';
import { bindEngineOptions, runtimeStoryOptionsSchema } from './engine-options';
import { createJsonLogger, RedactingLogger } from './logger';
import { ModulePackages } from './packages/module-packages';
import { routeKey } from './packages/module-operations';
import { ExecutionLifecycleTracker } from './execution-lifecycle';
import { builtinCatalogs } from './catalogs/builtin-catalogs';
import { JobScheduler } from './jobs/job-scheduler';
import { jobRunMetrics } from './jobs/job-run-metrics';
import type { EngineBuilderOptions } from './engine-builder-options';
import { EngineMeter } from './pack/engine-meter';
import { EngineTracer } from './pack/engine-tracer';
import { EventIdCatalog } from './pack/event-id-catalog';
import { ExtensionRegistry } from './pack/extension-registry';
import { PackDeclarations } from './pack/pack-declarations';
import { RegistrationClaims } from './pack/registration-claims';
import { EngineOperationRegistry } from './pack/operation-registry';
import { registerCallableRuntime } from './pack/callable-runtime';
import { RuntimeEventHub } from './pack/runtime-event-hub';
import { RuntimeStory } from './runtime-story';
import { StoreBinding, storesOptionsSchema } from './stores';
import { engineRecordEventIdRange } from './engine-record-event-ids';
import { newInstanceId } from './instance-id';
import { registrationProblems, throwIfInvalid } from './registration-validation';
import { serviceOptionsSchema } from './service-options';
import { registerReplicaPresence } from './presence/register-replica-presence';

export type { EngineBuilderOptions } from './engine-builder-options';

/** The EngineBuilder implementation: collects registrations, validates everything at build(). */
export class CoreEngineBuilder implements EngineBuilder {
  readonly configuration: ConfigurationStore;
  readonly logger: RedactingLogger;
  readonly story: RuntimeStory;
  readonly events: RuntimeEventHub;
  readonly meter = new EngineMeter();
  readonly tracer = new EngineTracer();
  readonly instanceId: string;
  readonly service: ServiceIdentity;
  private readonly clock: Clock;
  private readonly contentRoot: string;
  private readonly modules: ModuleDefinition[] = [];
  private readonly contributors: DependencyHealthContributor[] = [];
  private readonly hostedServices: HostedService[] = [];
  private readonly catalogs = new CatalogRegistry();
  private readonly operatorViews: OperatorViewDefinition[] = [];
  private readonly surfaces: Array<() => readonly TechnologySurface[]> = [];
  private readonly extensions = new ExtensionRegistry();
  private readonly operations = new EngineOperationRegistry();
  private readonly eventIds = new EventIdCatalog();
  private readonly hooks: LifecycleHooks[] = [];
  private readonly warnings: RegistrationWarning[] = [];
  private readonly registrations = new RegistrationClaims();
  private readonly packs = new PackDeclarations(engineVersion);
  private readonly jobs: JobScheduler;
  private readonly stores: StoreBinding;
  /** Replica presence's hooks: added after every other registration's at build (null when disabled). */
  private readonly presenceHooks: LifecycleHooks | null;
  private built = false;

  constructor(options: EngineBuilderOptions = {}) {
    this.eventIds.add(engineRecordEventIdRange);
    this.instanceId = options.instanceId ?? newInstanceId();
    this.clock = options.clock ?? systemClock;
    this.contentRoot = options.contentRoot ?? process.cwd();
    this.logger = new RedactingLogger(options.logger ?? createJsonLogger());
    const environment = options.environment ?? process.env;
    this.configuration = new ConfigurationStore({
      contentRoot: this.contentRoot,
      environmentName: options.environmentName ?? environment.NODE_ENV,
      environment,
      code: options.configuration,
      onSecret: (value: string) => this.logger.addSecret(value),
    });
    this.events = new RuntimeEventHub(this.clock);
    const service = this.configuration.bind('Engine:Service', serviceOptionsSchema);
    this.service = serviceIdentityFrom({ name: service.Name, version: service.Version }, environment);
    const storyOptions = this.configuration.bind('Engine:RuntimeStory', runtimeStoryOptionsSchema);
    this.story = new RuntimeStory(
      this.clock,
      storyOptions.MaxEntries,
      (entry) => this.events.emit({ type: 'runtime-story', entry }),
      { logger: this.logger },
    );
    this.jobs = new JobScheduler({
      clock: this.clock,
      story: this.story,
      logger: this.logger,
      onRun: jobRunMetrics(this.meter),
    });
    this.stores = new StoreBinding({
      contentRoot: this.contentRoot,
      clock: this.clock,
      settings: () => this.configuration.bind('Engine:Stores', storesOptionsSchema),
    });
    builtinCatalogs(this, this.catalogs, this.clock);
    registerCallableRuntime(this);
    this.presenceHooks = registerReplicaPresence(this, this.clock, engineVersion);
  }

  addModule(module: ModuleDefinition): this {
    this.assertOpen();
    this.modules.push(module);
    for (const operation of module.operations ?? []) this.operations.add(operation, module.id);
    return this;
  }

  addDependencyHealthContributor(contributor: DependencyHealthContributor): this {
    this.assertOpen();
    this.contributors.push(contributor);
    return this;
  }

  addCatalog<T>(definition: CatalogDefinition<T>): this {
    this.assertOpen();
    this.catalogs.register(definition as CatalogDefinition<unknown>);
    return this;
  }

  addCatalogEntries(catalogId: string, sourceModuleId: string | null, entries: readonly unknown[]): this {
    this.assertOpen();
    this.catalogs.contribute(catalogId, sourceModuleId, entries);
    return this;
  }

  addOperatorView<T>(definition: OperatorViewDefinition<T>): this {
    this.assertOpen();
    this.operatorViews.push(definition as OperatorViewDefinition);
    return this;
  }

  addOperation(operation: OperationDefinition<any, any, any, any>): this {
    this.assertOpen();
    this.operations.add(operation, null);
    return this;
  }

  addHostedService(service: HostedService): this {
    this.assertOpen();
    this.hostedServices.push(service);
    return this;
  }

  addTechnologySurfaces(source: () => readonly TechnologySurface[]): this {
    this.assertOpen();
    this.surfaces.push(source);
    return this;
  }

  addJob<TResult>(job: JobDefinition<TResult>): JobHandle<TResult> {
    this.assertOpen();
    return this.jobs.add(job);
  }

  /** A store handle; it opens on the provider in effect at the end of registration, when first used. */
  openStore<T>(name: string, options?: StoreOptions): KeyedStore<T> {
    return this.stores.open<T>(name, options);
  }

  /** The traits of the final store provider; binds it, so call it once every provider was installed. */
  storeTraits(): StoreProviderTraits {
    return this.stores.traits();
  }

  /** Installs the one store provider (before build); every store, opened before or after the call, uses it. */
  useStoreProvider(provider: StoreProvider): this {
    if (this.built) {
      throw new CoreError(
        'ENGINE_ALREADY_BUILT',
        `useStoreProvider(${provider.kind}) was called after build(): the store provider is chosen during registration; install it (addPostgresStores, addRedisStores, useStoreProvider) before build().`,
      );
    }
    this.stores.install(provider);
    provider.useTelemetry?.({ meter: this.meter, tracer: this.tracer });
    return this;
  }

  addEventIds(entry: EventIdCatalogEntry): this {
    this.assertOpen();
    this.eventIds.add(entry);
    return this;
  }

  addLifecycleHooks(hooks: LifecycleHooks): this {
    this.assertOpen();
    this.hooks.push(hooks);
    return this;
  }

  addWarning(warning: RegistrationWarning): this {
    this.warnings.push(warning);
    this.logger.log({
      level: 'warn',
      eventId: warning.eventId,
      category: 'engine',
      message: warning.message,
      code: warning.code,
      ...(warning.keyPath ? { keyPath: warning.keyPath } : {}),
    });
    return this;
  }

  addSecret(value: string): this {
    this.logger.addSecret(value);
    return this;
  }

  provide<T>(key: ExtensionKey<T>, value: T): this {
    this.assertOpen();
    this.extensions.provide(key, value);
    return this;
  }

  resolve<T>(key: ExtensionKey<T>): T | undefined {
    return this.extensions.resolve(key);
  }

  claimRegistration(claim: RegistrationClaim): this {
    this.registrations.claim(claim);
    return this;
  }

  hasRegistration(key: string): boolean {
    return this.registrations.has(key);
  }

  markRegistration(key: string): void {
    this.registrations.mark(key);
  }

  declarePack(pack: PackDeclaration): this {
    this.packs.declare(pack);
    return this;
  }

  /**
   * Validates configuration and every registration and returns the engine. Throws one CoreError listing
   * every problem found (CONFIGURATION_INVALID, ENGINE_REGISTRATION_INVALID or CATALOG_INVALID).
   */
  build(): CoreEngine {
    this.assertOpen();
    const { failurePolicy, shutdown, startup, healthDefaults } = bindEngineOptions(this.configuration);
    this.stores.bind('build()');
    const packages = new ModulePackages({
      configuration: this.configuration,
      contentRoot: this.contentRoot,
      clock: this.clock,
      logger: this.logger,
      codeModules: this.modules,
      reservedRoutes: new Map(
        this.operations
          .list()
          .map((operation) => [routeKey(operation.method, operation.path), `operation ${operation.id}`]),
      ),
    });

    throwIfInvalid(
      registrationProblems({
        modules: this.modules,
        contributors: this.contributors,
        hostedServices: this.hostedServices,
        hooks: this.hooks,
        operations: this.operations,
        eventIds: this.eventIds,
        catalogViews: this.catalogs.views(),
        operatorViews: this.operatorViews,
      }),
    );

    this.runBuildHooks();
    this.built = true;
    if (this.presenceHooks) this.hooks.push(this.presenceHooks);

    const contributors = [...this.contributors];
    const graphs = this.catalogs.publishedEntries('execution-graphs') as ExecutionGraphDescriptor[];
    const executions = this.catalogs.publishedEntries('hosted-executions') as HostedExecutionDescriptor[];
    const runnerIds = ExecutionLifecycleTracker.runnerIds(executions);
    const runners = new Map(
      this.hostedServices
        .filter((service) => runnerIds.has(service.id))
        .map((service) => [service.id, service]),
    );
    const engine = new CoreEngine({
      configuration: this.configuration,
      clock: this.clock,
      logger: this.logger,
      story: this.story,
      events: this.events,
      meter: this.meter,
      modules: [...this.modules],
      hostedServices: this.hostedServices.filter((service) => !runnerIds.has(service.id)),
      executions: (hooks) => new ExecutionLifecycleTracker(this.clock, graphs, executions, runners, hooks),
      scheduler: (hooks) =>
        new DependencyHealthScheduler(
          contributors,
          this.clock,
          this.logger,
          {
            refreshIntervalSeconds: healthDefaults.RefreshIntervalSeconds,
            timeoutSeconds: healthDefaults.TimeoutSeconds,
            staleAfterIntervals: healthDefaults.StaleAfterIntervals,
          },
          hooks,
        ),
      catalogs: this.catalogs,
      operatorViews: [...this.operatorViews],
      failurePolicy,
      shutdown,
      startup,
      technologySurfaces: [...this.surfaces],
      extensions: this.extensions,
      operations: this.operations,
      eventIds: this.eventIds,
      packs: this.packs,
      service: { ...this.service, instanceId: this.instanceId },
      warnings: this.warnings,
      jobs: this.jobs,
      hooks: [this.stores.schemas.hooks(() => this.stores.traits(), this.logger), ...this.hooks],
      packages,
      closeStores: () => this.stores.close(),
      onModuleLoaded: (definition, packageId) => {
        for (const operation of definition.operations ?? []) {
          this.operations.add(operation, `${definition.id} (package ${packageId})`);
        }
      },
    });
    for (const hooks of this.hooks) hooks.attach?.(engine);
    return engine;
  }

  /** Resolves the catalogs against the modules, then runs the packs' build hooks; their problems fail the build. */
  private runBuildHooks(): void {
    const moduleIds = new Set(this.modules.map((module) => module.id));
    const capabilities = new Map(
      this.modules.map((module) => [module.id, new Set(module.capabilities ?? [])]),
    );
    this.catalogs.resolve(moduleIds, capabilities);
    const buildContext = {
      modules: [...this.modules],
      moduleIds,
      capabilities,
      entries: (catalogId: string) => this.catalogs.publishedEntries(catalogId),
    };
    throwIfInvalid(
      this.hooks.flatMap((hooks) =>
        (hooks.build?.(buildContext) ?? []).map((problem) => `${hooks.id}: ${problem}`),
      ),
    );
  }

  private assertOpen(): void {
    if (this.built) {
      throw new CoreError(
        'ENGINE_ALREADY_BUILT',
        'This builder has already built an engine; create a new builder to build another',
      );
    }
  }
}

/** Creates a builder; compose it with `add*` calls, then `build()`. */
export function createEngineBuilder(options: EngineBuilderOptions = {}): CoreEngineBuilder {
  return new CoreEngineBuilder(options);
}
