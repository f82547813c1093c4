import {
  CoreError,
  type CatalogDefinition,
  type DependencyHealthContributor,
  type EngineBuilder,
  type ExecutionGraphDescriptor,
  type HostedExecutionDescriptor,
  type HostedService,
  type Logger,
  type ModuleDefinition,
  type TechnologySurface,
} from '@corekit/abstractions';
import { CatalogRegistry } from './catalog-registry';
import { systemClock, type Clock } from './clock';
import { ConfigurationStore } from './configuration-store';
import { DependencyHealthScheduler } from './dependency-health-scheduler';
import { CoreEngine } from './engine';
import {
  dependencyHealthDefaultsSchema,
  failurePolicySchema,
  runtimeStoryOptionsSchema,
  type FailurePolicy,
} from './engine-options';
import { createJsonLogger, RedactingLogger } from './logger';
import { moduleRoutesExtensionKey } from './packages/module-routes';
import { ModulePackages } from './packages/module-packages';
import { ExecutionLifecycleTracker } from './execution-lifecycle';
import { builtinCatalogs } from './catalogs/builtin-catalogs';
import type { RestPublicationRegistration } from './rest/register-rest-publication';

/** Options of createEngineBuilder. Everything is optional; the defaults suit a production process. */
export interface EngineBuilderOptions {
  /** Options in code, nested by the spec's keys (`{ Engine: { FailurePolicy: { ... } } }`); they win over every other source. */
  readonly configuration?: Record<string, unknown>;
  /** Directory holding engine.json and engine.<environment>.json. Default: the working directory. */
  readonly contentRoot?: string;
  /** Environment variables to read (`Engine__FailurePolicy__StartupReadinessDelay`). Default: process.env. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Selects engine.<name>.json. Default: NODE_ENV. */
  readonly environmentName?: string;
  /** Source of time; tests pass manualClock(). */
  readonly clock?: Clock;
  /** Where structured records go. Default: JSON lines on stdout. */
  readonly logger?: Logger;
}

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** The EngineBuilder implementation: collects registrations, validates everything at build(). */
export class CoreEngineBuilder implements EngineBuilder {
  readonly configuration: ConfigurationStore;
  readonly logger: RedactingLogger;
  private readonly clock: Clock;
  private readonly contentRoot: string;
  private readonly modules: ModuleDefinition[] = [];
  private readonly contributors: DependencyHealthContributor[] = [];
  private readonly hostedServices: HostedService[] = [];
  private readonly catalogs = new CatalogRegistry();
  private readonly surfaces: Array<() => readonly TechnologySurface[]> = [];
  private readonly extensions = new Map<string, unknown>();
  private readonly registrations = new Set<string>();
  private readonly restPublication: RestPublicationRegistration;
  private built = false;

  constructor(options: EngineBuilderOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.contentRoot = options.contentRoot ?? process.cwd();
    this.logger = new RedactingLogger(options.logger ?? createJsonLogger());
    this.configuration = new ConfigurationStore({
      contentRoot: this.contentRoot,
      environmentName: options.environmentName ?? process.env.NODE_ENV,
      environment: options.environment ?? process.env,
      code: options.configuration,
    });
    this.restPublication = builtinCatalogs(this, this.catalogs, this.clock);
  }

  addModule(module: ModuleDefinition): this {
    this.assertOpen();
    this.modules.push(module);
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

  addSecret(value: string): this {
    this.logger.addSecret(value);
    return this;
  }

  setExtension(key: string, value: unknown): this {
    this.assertOpen();
    this.extensions.set(key, value);
    return this;
  }

  hasRegistration(key: string): boolean {
    return this.registrations.has(key);
  }

  markRegistration(key: string): void {
    this.registrations.add(key);
  }

  /**
   * Validates configuration and every registration and returns the engine. Throws one CoreError listing
   * every problem found (CONFIGURATION_INVALID, ENGINE_REGISTRATION_INVALID or CATALOG_INVALID).
   */
  build(): CoreEngine {
    this.assertOpen();
    const failurePolicy = this.configuration.bind(
      'Engine:FailurePolicy',
      failurePolicySchema,
    ) as unknown as FailurePolicy;
    const story = this.configuration.bind('Engine:RuntimeStory', runtimeStoryOptionsSchema);
    const healthDefaults = this.configuration.bind(
      'Engine:Observability:DependencyHealth',
      dependencyHealthDefaultsSchema.passthrough(),
    );
    const packages = new ModulePackages({
      configuration: this.configuration,
      contentRoot: this.contentRoot,
      clock: this.clock,
      logger: this.logger,
      codeModules: this.modules,
    });
    if (!this.extensions.has(moduleRoutesExtensionKey))
      this.extensions.set(moduleRoutesExtensionKey, packages.routeRegistry);

    const problems: string[] = [];
    checkIds(
      'module',
      this.modules.map((module) => module.id),
      problems,
    );
    checkIds(
      'dependency-health contributor',
      this.contributors.map((contributor) => contributor.id),
      problems,
    );
    checkIds(
      'hosted service',
      this.hostedServices.map((service) => service.id),
      problems,
    );
    for (const module of this.modules) {
      if (typeof module.version !== 'string' || module.version.length === 0) {
        problems.push(`module ${module.id} has no version`);
      }
    }
    for (const contributor of this.contributors) {
      for (const field of ['refreshIntervalSeconds', 'timeoutSeconds'] as const) {
        const value = contributor[field];
        if (value !== undefined && !(typeof value === 'number' && value > 0 && Number.isFinite(value))) {
          problems.push(
            `dependency-health contributor ${contributor.id} ${field} must be a positive number, got ${JSON.stringify(value)}`,
          );
        }
      }
    }
    if (problems.length > 0) {
      throw new CoreError(
        'ENGINE_REGISTRATION_INVALID',
        `The engine cannot be built:\n- ${problems.join('\n- ')}`,
        { problems },
      );
    }

    const moduleIds = new Set(this.modules.map((module) => module.id));
    const capabilities = new Map(
      this.modules.map((module) => [module.id, new Set(module.capabilities ?? [])]),
    );
    this.restPublication.resolve(this.modules);
    this.catalogs.resolve(moduleIds, capabilities);
    this.built = true;

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
      failurePolicy,
      storyMaxEntries: story.MaxEntries,
      technologySurfaces: [...this.surfaces],
      extensions: new Map(this.extensions),
      packages,
    });
    this.restPublication.attach(engine);
    return engine;
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

function checkIds(what: string, ids: readonly string[], problems: string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (typeof id !== 'string' || !idPattern.test(id))
      problems.push(`${what} id ${JSON.stringify(id)} is not a valid id (letters, digits, . _ : -)`);
    else if (seen.has(id)) problems.push(`${what} id "${id}" is registered twice`);
    seen.add(id);
  }
}

/** Creates a builder; compose it with `add*` calls, then `build()`. */
export function createEngineBuilder(options: EngineBuilderOptions = {}): CoreEngineBuilder {
  return new CoreEngineBuilder(options);
}
