import {
  type CatalogView,
  type OperatorViewDefinition,
  type DependencyHealthEntry,
  type DiagnosticsDocument,
  type Engine,
  type ExtensionKey,
  type HealthReport,
  type JobState,
  type ManifestDocument,
  type PackageRecord,
  type RuntimeEvent,
  type RuntimeState,
  type RuntimeStoryDocument,
  type StartFailureOptions,
  type StatusDocument,
  type TechnologySurface,
} from '@corekit/abstractions';
import packageJson from '../package.json';
import { isoAt } from './clock';
import type { DependencyHealthScheduler } from './dependency-health-scheduler';
import {
  activitySourceName,
  diagnosticsConventions,
  EngineInstruments,
  engineInstrumentDescriptions,
  meterName,
} from './diagnostics';
import type { EngineParts } from './engine-parts';
import type { ExecutionLifecycleTracker } from './execution-lifecycle';
import { supportedPackSpecificationVersions } from './pack/pack-declarations';
import { HealthReporting } from './runtime/health-reporting';
import { initialLifecycleState, type LifecycleState } from './runtime/lifecycle-state';
import { ModuleLifecycles } from './runtime/module-lifecycle';
import { RuntimeLifecycle } from './runtime/runtime-lifecycle';
import { closeStoreProvider } from './runtime/store-closing';

export const engineVersion: string = packageJson.version;

export type { EngineParts } from './engine-parts';

/**
 * The built runtime, a thin facade over its parts: the lifecycle (start, stop, restart), the modules, health
 * reporting, the story and events, and the read surfaces. Reads never run a dependency check.
 */
export class CoreEngine implements Engine {
  private readonly lifecycleState: LifecycleState = initialLifecycleState();
  private readonly instruments = new EngineInstruments();
  private readonly scheduler: DependencyHealthScheduler;
  private readonly modules: ModuleLifecycles;
  private readonly executions: ExecutionLifecycleTracker;
  private readonly reporting: HealthReporting;
  private readonly lifecycle: RuntimeLifecycle;

  constructor(private readonly parts: EngineParts) {
    this.scheduler = parts.scheduler({
      redact: (value) => parts.logger.redact(value),
      onStatusChange: (entry, previous) => {
        parts.events.emit({
          type: 'dependency-changed',
          dependencyId: entry.id,
          status: entry.status,
          previous,
          atUtc: this.nowIso(),
        });
        this.reporting.publishChanges();
      },
      onChecked: (entry) => {
        parts.events.emit({ type: 'dependency-checked', entry, atUtc: this.nowIso() });
      },
      onRun: (contributor, outcome, durationMs) => {
        this.instruments.count('dependencyChecks', { kind: contributor.kind, outcome });
        if (durationMs !== undefined) {
          this.instruments.record('dependencyCheckDuration', durationMs, { kind: contributor.kind, outcome });
        }
      },
    });
    this.modules = new ModuleLifecycles(parts.clock, parts.story, this.instruments);
    for (const definition of parts.modules) this.modules.add(definition, 'code');
    this.executions = parts.executions({
      record: (entry) => parts.story.record(entry),
      count: (key, attributes) => this.instruments.count(key, attributes),
    });
    this.reporting = new HealthReporting(
      this.lifecycleState,
      parts.clock,
      parts.failurePolicy,
      () => this.scheduler.entries(),
      parts.events,
      parts.logger,
    );
    this.lifecycle = new RuntimeLifecycle({
      state: this.lifecycleState,
      configuration: parts.configuration,
      clock: parts.clock,
      story: parts.story,
      logger: parts.logger,
      instruments: this.instruments,
      modules: this.modules,
      packages: parts.packages,
      dependencies: this.scheduler,
      hostedServices: parts.hostedServices,
      executions: this.executions,
      jobs: parts.jobs,
      hooks: parts.hooks,
      failurePolicy: parts.failurePolicy,
      shutdown: parts.shutdown,
      startup: parts.startup,
      extensions: parts.extensions,
      beforeFirstStart: () => parts.configuration.assertKnownKeys?.(),
      onStateChange: () => {
        this.reporting.publishChanges();
        this.reporting.watch(
          this.lifecycleState.state === 'Started' || this.lifecycleState.state === 'Stopping',
        );
      },
      onModuleLoaded: parts.onModuleLoaded,
    });
    parts.operations.attach({
      configuration: parts.configuration,
      logger: parts.logger,
      engine: this,
      isAvailable: () => this.lifecycleState.state === 'Started',
      counter: parts.meter.counter('corekit.engine.operations', 'operation invocations by outcome'),
    });
  }

  get configuration() {
    return this.parts.configuration;
  }

  get state(): RuntimeState {
    return this.lifecycleState.state;
  }

  get logger() {
    return this.parts.logger;
  }

  get operations() {
    return this.parts.operations;
  }

  /**
   * Refuses, with CONFIGURATION_INVALID, every configuration key under `Engine:` that no registration bound,
   * each with the closest known key. The first start runs the same check; a host calls this before it listens
   * (after binding its own sections), so a misspelled key ends the process before any port opens. Before the
   * first start, a refusal is a start failure too: the state turns Failed (not restartable), as `start()` would.
   */
  checkConfiguration(): void {
    try {
      this.parts.configuration.assertKnownKeys();
    } catch (error) {
      if (this.lifecycleState.state === 'Created') {
        this.lifecycle.recordStartFailure('configuration', error, { restartable: false });
      }
      throw error;
    }
  }

  /**
   * Records a start failure a host found itself (its listener, its own section): Failed, `lastFailure`, a story
   * entry. Refused (ENGINE_INVALID_STATE) while Starting, Started or Stopping.
   */
  recordStartFailure(phase: string, error: unknown, options?: StartFailureOptions): void {
    this.lifecycle.recordStartFailure(phase, error, options);
  }

  /**
   * Starts the runtime. A failed start has already run the packs' stopping hooks and stopped what had started;
   * it also closes the store provider before rejecting, so nothing the start opened stays open.
   */
  async start(): Promise<void> {
    try {
      await this.lifecycle.start();
    } catch (error) {
      await this.closeStores();
      throw error;
    }
  }

  /**
   * The ordered stop: Stopping, the packs' stopping hooks (awaited, at most StoppingHooksTimeout), jobs (at most
   * JobStopTimeout), the engine signal aborted, dependency checks, hosted executions and services, modules, then
   * the store provider (at most StoreCloseTimeout; a later start reopens what the stores need).
   */
  async stop(): Promise<void> {
    await this.lifecycle.stop();
    await this.closeStores();
  }

  /**
   * The same stop (hooks see `restarting: true`), then a start; the store provider stays open unless that start
   * fails (then it closes, as after a failed `start()`).
   */
  async restart(): Promise<void> {
    try {
      await this.lifecycle.restart();
    } catch (error) {
      if (this.lifecycleState.state === 'Failed') await this.closeStores();
      throw error;
    }
  }

  /**
   * Stopping at once (readiness Unhealthy, operations refused), then the packs' stopping hooks; resolves once
   * they finished (at most StoppingHooksTimeout). Hosts await it, drain their requests, then call stop().
   */
  beginShutdown(): Promise<void> {
    return this.lifecycle.beginShutdown();
  }

  private async closeStores(): Promise<void> {
    const { closeStores, shutdown, story, logger } = this.parts;
    if (closeStores) await closeStoreProvider(closeStores, shutdown.StoreCloseTimeout, story, logger);
  }

  /** Runs every dependency contributor once now; resolves when all have settled. */
  refreshDependencies(): Promise<void> {
    return this.scheduler.refreshAll().then(() => this.reporting.publishChanges());
  }

  liveness(): HealthReport {
    return this.reporting.liveness();
  }

  readiness(): HealthReport {
    return this.reporting.readiness();
  }

  health(): HealthReport {
    return this.reporting.health();
  }

  status(): StatusDocument {
    return this.reporting.status();
  }

  dependencies(): readonly DependencyHealthEntry[] {
    return this.scheduler.entries();
  }

  jobs(): readonly JobState[] {
    return this.parts.jobs.states();
  }

  diagnostics(healthRoutes: readonly string[] = []): DiagnosticsDocument {
    return {
      meterName,
      activitySourceName,
      counters: { ...engineInstrumentDescriptions(), ...this.parts.meter.descriptions() },
      conventions: { ...diagnosticsConventions },
      eventIds: this.parts.eventIds.ranges(),
      liveness: this.liveness(),
      readiness: this.readiness(),
      dependencies: this.dependencies(),
      healthRoutes: [...healthRoutes],
      warnings: [...this.parts.warnings],
      jobs: this.jobs(),
    };
  }

  runtimeStory(): RuntimeStoryDocument {
    const { state, restartCount, lastFailure } = this.lifecycleState;
    return {
      status: state,
      restartCount,
      lastFailure,
      packages: this.packages(),
      modules: this.modules.lifecycles(),
      executions: this.executions.lifecycles(),
      timeline: this.parts.story.timeline(),
      maxEntries: this.parts.story.maxEntries,
      droppedEntries: this.parts.story.droppedEntries,
    };
  }

  manifest(): ManifestDocument {
    return {
      engine: {
        name: '@corekit/engine-core',
        version: engineVersion,
        packSpecificationVersions: [...supportedPackSpecificationVersions],
      },
      service: { ...this.parts.service },
      modules: this.modules.manifestModules(),
      packs: this.parts.packs.list().map((pack) => ({ ...pack })),
    };
  }

  /** The merged runtime answer (spec 1): status, manifest, story, diagnostics, dependencies and every catalog. */
  snapshot(): Record<string, unknown> {
    const snapshot: Record<string, unknown> = {
      generatedAtUtc: this.nowIso(),
      status: this.status(),
      manifest: this.manifest(),
      dependencies: this.dependencies(),
      runtimeStory: this.runtimeStory(),
      diagnostics: this.diagnostics(),
      packages: this.packages(),
      packagePolicy: this.packagePolicy(),
      trustPolicy: this.trustPolicy(),
      technologySurfaces: this.technologySurfaces(),
    };
    for (const view of this.catalogs()) snapshot[view.definition.snapshotField] = view.entries();
    return snapshot;
  }

  catalogs(): readonly CatalogView[] {
    return this.parts.catalogs.views();
  }

  catalog(id: string): CatalogView | undefined {
    return this.parts.catalogs.view(id);
  }

  operatorViews(): readonly OperatorViewDefinition[] {
    return this.parts.operatorViews;
  }

  packages(): readonly PackageRecord[] {
    return this.parts.packages.records();
  }

  packagePolicy(): Record<string, unknown> {
    return this.parts.packages.packagePolicyDocument();
  }

  trustPolicy(): Record<string, unknown> {
    return this.parts.packages.trustPolicyDocument();
  }

  technologySurfaces(): readonly TechnologySurface[] {
    return this.parts.technologySurfaces.flatMap((source) => source());
  }

  subscribe(listener: (event: RuntimeEvent) => void): () => void {
    return this.parts.events.subscribe(listener);
  }

  resolve<T>(key: ExtensionKey<T>): T | undefined {
    return this.parts.extensions.resolve(key);
  }

  private nowIso(): string {
    return isoAt(this.parts.clock.now());
  }
}
